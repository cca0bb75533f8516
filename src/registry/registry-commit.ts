import type { AgentCatalog } from '../agents/outside-agents.js';
import { type LoadedRegistry, withLazyHash } from './loaded-registry.js';
import { clonePlain, findUnsupported, plainEqual } from './plain-data.js';
import type { RegistryIssue } from './registry-issue.js';
import type { RegistryState } from './registry-state.js';
import type { SessionRow } from './session-row.js';
import { duplicateIssue, rowIssues } from './validate-registry.js';
import { emitItem, emitTopLevel, isPlainObject } from './yaml-emit.js';

/**
 * How the rows changed between two versions, for an incremental mirror update; `inOrder` is false when surviving rows
 * moved relative to each other or a new row sits before an old one (the mirror is then rebuilt).
 * @public
 */
export interface RowDelta {
  removed: string[];
  /** Indexes (in the new version) of rows that are new or changed. */
  changed: number[];
  inOrder: boolean;
}

/**
 * The outcome of a mutator: the next version (its bytes included) and what changed; or the issues that refuse it.
 * @public
 */
export type CommitResult =
  | { kind: 'unchanged' }
  | { kind: 'changed'; next: LoadedRegistry & { bytes: Uint8Array }; delta: RowDelta }
  | { kind: 'invalid'; issues: RegistryIssue[] };

function describeList(v: unknown): string {
  if (v === undefined) return 'missing';
  return v === null ? 'null' : isPlainObject(v) ? 'a mapping' : `a ${typeof v}`;
}

// Rows: an unchanged row (same name, equal content) keeps its object and text; others are validated, copied, emitted.
function commitRows(prev: LoadedRegistry, draftRows: unknown[], issues: RegistryIssue[], agents: AgentCatalog<string> | undefined): { rows: SessionRow[]; texts: Uint8Array[]; delta: RowDelta } {
  const prevRows = prev.state.herdr_sessions;
  const prevIndex = new Map<string, number>();
  prevRows.forEach((r, i) => prevIndex.set(r.name, i));
  const rows: SessionRow[] = [];
  const texts: Uint8Array[] = [];
  const changed: number[] = [];
  const seen = new Map<string, number>();
  let lastKept = -1;
  let newSeen = false;
  let inOrder = true;
  draftRows.forEach((draft, i) => {
    const name = isPlainObject(draft) && typeof draft['name'] === 'string' ? draft['name'] : undefined;
    const first = name === undefined ? undefined : seen.get(name);
    if (name !== undefined && first !== undefined) issues.push(duplicateIssue(name, i, first));
    if (name !== undefined) seen.set(name, i);
    const j = name === undefined ? undefined : prevIndex.get(name);
    if (j !== undefined) {
      if (j < lastKept || newSeen) inOrder = false;
      lastKept = j;
    } else newSeen = true;
    const old = j === undefined ? undefined : prevRows[j];
    if (old !== undefined && j !== undefined && plainEqual(draft, old)) {
      rows.push(old);
      texts.push((prev.rowTexts[j] ??= Buffer.from(emitItem(old, 0, `herdr_sessions[${j}]`))));
      return;
    }
    const found = rowIssues(draft, i, false, agents);
    issues.push(...found);
    if (found.length > 0) return;
    const row = clonePlain(draft) as SessionRow;
    rows.push(row);
    texts.push(Buffer.from(emitItem(row, 0, `herdr_sessions[${i}]`)));
    changed.push(i);
  });
  const removed = prevRows.filter((r) => !seen.has(r.name)).map((r) => r.name);
  return { rows, texts, delta: { removed, changed, inOrder } };
}

function checkOrchestrators(ids: unknown, issues: RegistryIssue[]): string[] {
  if (!Array.isArray(ids)) {
    issues.push({ problem: 'not-a-list', message: `orchestrator_uuids is ${describeList(ids)}, not a list`, field: 'orchestrator_uuids' });
    return [];
  }
  ids.forEach((id: unknown, i) => {
    if (typeof id !== 'string') issues.push({ problem: 'invalid-field', message: `orchestrator_uuids[${i}] is not a string`, field: `orchestrator_uuids[${i}]` });
  });
  return [...(ids as string[])];
}

/**
 * Turns a mutated draft into the next version: validates what changed, copies it (so the caller's draft is never the
 * cache), and renders the file text in the draft's key order; rows may name `agents` (the built-ins by default).
 * @public
 */
export function commitDraft(prev: LoadedRegistry, draft: RegistryState, agents?: AgentCatalog<string>): CommitResult {
  const issues: RegistryIssue[] = [];
  if (!isPlainObject(draft)) return { kind: 'invalid', issues: [{ problem: 'not-a-mapping', message: 'the state is not a mapping' }] };
  const draftRows: unknown = draft.herdr_sessions;
  if (!Array.isArray(draftRows)) issues.push({ problem: 'not-a-list', message: `herdr_sessions is ${describeList(draftRows)}, not a list`, field: 'herdr_sessions' });
  const { rows, texts, delta } = commitRows(prev, Array.isArray(draftRows) ? draftRows : [], issues, agents);
  const orchestrators = checkOrchestrators(draft.orchestrator_uuids, issues);
  const top: Record<string, unknown> = {};
  // The file as byte chunks: each row's cached bytes are reused as they are, so only changed rows are rendered.
  const parts: Uint8Array[] = [];
  for (const key of Object.keys(draft)) {
    const value = draft[key];
    if (key === 'herdr_sessions') {
      top[key] = rows;
      parts.push(Buffer.from(texts.length === 0 ? 'herdr_sessions: []\n' : 'herdr_sessions:\n'), ...texts);
    } else if (key === 'orchestrator_uuids') {
      top[key] = orchestrators;
      if (orchestrators.length > 0 || prev.present.orchestrator_uuids) parts.push(Buffer.from(emitTopLevel(key, orchestrators)));
    } else if (value !== undefined) {
      const odd = key === '__proto__' ? { at: 'the top level', what: 'a key named __proto__' } : findUnsupported(value, key);
      if (odd !== null) issues.push({ problem: 'unsupported-value', message: `${odd.at} holds ${odd.what}`, field: odd.at });
      else {
        top[key] = clonePlain(value);
        parts.push(Buffer.from(emitTopLevel(key, value)));
      }
    }
  }
  if (issues.length > 0) return { kind: 'invalid', issues };
  // Same content, whatever the file's formatting: nothing to write (reused rows compare by identity, so this is cheap).
  if (plainEqual(top, prev.state)) return { kind: 'unchanged' };
  const bytes = Buffer.concat(parts);
  const present = { herdr_sessions: true, orchestrator_uuids: orchestrators.length > 0 || prev.present.orchestrator_uuids };
  const next = withLazyHash({ bytes, state: top as RegistryState, rowTexts: texts, present });
  return { kind: 'changed', next, delta };
}
