import { isUuid } from '../contract/uuid.js';
import type { HermesSession } from './hermes-sessions.js';

/**
 * One Hermes conversation as its session rows tell it: the compression chain from its root to the tip the live session
 * uses now, and everything a purge of it removes (the chain, branch continuations, delegate children, recursively).
 * @public
 */
export interface HermesConversation {
  /** The first session of the chain (not a compression child). */
  root: HermesSession;
  /** The newest continuation: the id Hermes resumes now (`HERMES_SESSION_ID` moves to it). */
  tip: HermesSession;
  /** Every id of the compression chain, root first, tip last. */
  chain: string[];
  /** The ids a purge deletes, as stored: the chain, then its descendants (delegate, branch and further compression children). */
  members: string[];
  /** Children of members that are separate conversations (gateway resets): a purge orphans them, as Hermes does. */
  orphans: string[];
}

/**
 * The session graph of one `state.db`: who continues whom.
 * @public
 */
export class HermesGraph {
  readonly #byId = new Map<string, HermesSession>();
  readonly #children = new Map<string, HermesSession[]>();

  /** Indexes the rows of one `sessions` table. */
  constructor(
    /** Every row of the table. */
    readonly rows: readonly HermesSession[],
  ) {
    for (const r of rows) this.#byId.set(r.id, r);
    for (const r of rows) {
      if (r.parent === null) continue;
      const list = this.#children.get(r.parent) ?? [];
      list.push(r);
      this.#children.set(r.parent, list);
    }
  }

  /** The row of a canonical id (a uuid matches in any case), or undefined. */
  find(id: string): HermesSession | undefined {
    const exact = this.#byId.get(id);
    if (exact !== undefined || !isUuid(id)) return exact;
    return this.rows.find((r) => r.id.toLowerCase() === id);
  }

  /** True for a delegate (subagent) child: never a conversation of its own. */
  isDelegate(s: HermesSession): boolean {
    return s.source === 'subagent' || s.delegateFrom !== null;
  }

  /** True for a compression continuation: its parent ended by compression and it is no fork of it. */
  isCompressionChild(s: HermesSession): boolean {
    if (s.parent === null || this.isDelegate(s) || s.branchedFrom !== null || s.resetFrom !== null || s.source === 'tool') return false;
    return this.#byId.get(s.parent)?.endReason === 'compression';
  }

  /** The conversation an id belongs to (any id of a chain, or a delegate child's own), or undefined when no row has it. */
  conversation(id: string): HermesConversation | undefined {
    let root = this.find(id);
    if (root === undefined) return undefined;
    const seen = new Set<string>();
    while (this.isCompressionChild(root) && !seen.has(root.id)) {
      seen.add(root.id);
      const parent = this.#byId.get(root.parent ?? '');
      if (parent === undefined) break;
      root = parent;
    }
    const chain = [root];
    for (;;) {
      const last = chain[chain.length - 1] as HermesSession;
      const next = this.newest((this.#children.get(last.id) ?? []).filter((c) => this.isCompressionChild(c) && !chain.includes(c)));
      if (next === undefined) break;
      chain.push(next);
    }
    const { members, orphans } = this.closure(chain.map((s) => s.id));
    return { root, tip: chain[chain.length - 1] as HermesSession, chain: chain.map((s) => s.id), members, orphans };
  }

  /** True when some row names this id as its parent (a root without children is its own whole chain: root and tip). */
  hasChildren(id: string): boolean {
    return this.#children.has(id);
  }

  /** Roots of conversations (neither compression nor delegate children). */
  roots(): HermesSession[] {
    return this.rows.filter((r) => !this.isCompressionChild(r) && !this.isDelegate(r));
  }

  private newest(list: readonly HermesSession[]): HermesSession | undefined {
    return [...list].sort((a, b) => (b.startedAt ?? -Infinity) - (a.startedAt ?? -Infinity) || b.id.localeCompare(a.id))[0];
  }

  private closure(start: readonly string[]): { members: string[]; orphans: string[] } {
    const members = new Set(start);
    const orphans = new Set<string>();
    const queue = [...start];
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      for (const child of this.#children.get(id) ?? []) {
        if (members.has(child.id)) continue;
        if (child.resetFrom !== null) {
          orphans.add(child.id);
          continue;
        }
        members.add(child.id);
        queue.push(child.id);
      }
    }
    return { members: [...members], orphans: [...orphans].filter((o) => !members.has(o)) };
  }
}
