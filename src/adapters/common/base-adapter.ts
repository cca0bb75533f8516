import { normalizeAgentId } from '../../ids/agent-id.js';
import { type AgentName, ownKey } from '../../ids/agent-names.js';
import type { Ports } from '../../ports/index.js';
import type { FileHolder, ProcessInfo } from '../../ports/process.js';
import type { SessionRow } from '../../registry/session-row.js';
import type { AgentAdapter, CaptureResult, DiscoveryContext, InUseHolder, PreflightResult } from '../types.js';
import { agentEnv } from './agent-env.js';
import { type ArtifactPath, existingArtifacts, removeArtifacts } from './artifacts.js';
import { decideCapture } from './capture.js';
import { findInUseHolders, psHint } from './in-use.js';

/**
 * What every adapter shares: id normalisation before any path is built, the in-use check, purge/residual/hasArtifacts
 * over the adapter's list of artifact paths, and the capture rule. An adapter supplies where things are.
 * @public
 */
export abstract class BaseAdapter implements AgentAdapter {
  abstract readonly name: AgentName;
  abstract readonly idLifecycle: 'pre_assigned' | 'post_discovered';
  readonly sessionEnvVar?: string;
  readonly residentChildren: readonly string[] = [];

  constructor(protected readonly ports: Ports) {}

  get ownKey(): string {
    return ownKey(this.name);
  }

  abstract discover(ctx: DiscoveryContext): Promise<string[]>;
  abstract verifyArtifact(id: string, ctx: DiscoveryContext, mode?: 'verify' | 'discover'): Promise<boolean>;

  /** The conversation's own artifact paths, in removal order (key files before the file tying them to the id). */
  protected abstract artifactPaths(id: string, ctx: DiscoveryContext): Promise<ArtifactPath[]>;

  /** Files whose open holders mean the conversation is live. */
  protected async heldPaths(_id: string, _ctx: DiscoveryContext): Promise<string[]> {
    return [];
  }

  /** Holders of `heldPaths` that do not count. */
  protected ignoreHolder(_holder: FileHolder, _proc: ProcessInfo | undefined): boolean {
    return false;
  }

  /** Further in-use evidence from the same process snapshot. */
  protected async extraInUse(_id: string, _ctx: DiscoveryContext, _snapshot: readonly ProcessInfo[]): Promise<InUseHolder[]> {
    return [];
  }

  /** Database rows naming the id, as `<db> (<table>.<col>: N rows)`. */
  protected async dbRows(_id: string, _ctx: DiscoveryContext): Promise<string[]> {
    return [];
  }

  /** Deletes the database rows naming the id; returns what was deleted in the same notation. */
  protected async purgeDbRows(_id: string, _ctx: DiscoveryContext): Promise<string[]> {
    return [];
  }

  /** The canonical id, or null when the id is not plausible for this agent (it then reaches no path). */
  protected canonical(id: unknown): string | null {
    return normalizeAgentId(this.name, id);
  }

  /** True when another row records this (canonical) id: `discover` mode never offers it. */
  protected claimedBySibling(canonicalId: string, ctx: DiscoveryContext): boolean {
    return (ctx.siblingClaimedIds ?? []).some((s) => this.canonical(s) === canonicalId);
  }

  /** The environment that locates this agent's dirs (see {@link agentEnv}). */
  protected env(ctx: DiscoveryContext): Promise<Readonly<Record<string, string | undefined>>> {
    return agentEnv(this.ports.fs, this.ports.proc, ctx);
  }

  async inUseHolders(id: string, ctx: DiscoveryContext): Promise<InUseHolder[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    return findInUseHolders(this.ports.proc, {
      agent: this.name,
      id: c,
      heldPaths: await this.heldPaths(c, ctx),
      ignoreHolder: (h, p) => this.ignoreHolder(h, p),
      extra: (snapshot) => this.extraInUse(c, ctx, snapshot),
    });
  }

  async conversationInUse(id: string, ctx: DiscoveryContext): Promise<boolean> {
    return (await this.inUseHolders(id, ctx)).length > 0;
  }

  inUseHints(id: string, _ctx: DiscoveryContext): string[] {
    const c = this.canonical(id);
    return c === null ? [] : [psHint(c)];
  }

  async purgeArtifacts(id: string, ctx: DiscoveryContext): Promise<string[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    // Paths first: some are found through the rows the next step deletes.
    const paths = await this.artifactPaths(c, ctx);
    const rows = await this.purgeDbRows(c, ctx).catch(() => []);
    const files = await removeArtifacts(this.ports.fs, paths);
    return [...rows, ...files.purged];
  }

  async residualArtifacts(id: string, ctx: DiscoveryContext): Promise<string[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    const files = await existingArtifacts(this.ports.fs, await this.artifactPaths(c, ctx));
    return [...files.map((f) => f.path), ...(await this.dbRows(c, ctx).catch(() => []))];
  }

  async hasArtifacts(id: string, ctx: DiscoveryContext): Promise<boolean> {
    return (await this.residualArtifacts(id, ctx)).length > 0;
  }

  async mentions(_id: string, _ctx: DiscoveryContext): Promise<string[]> {
    return [];
  }

  async authOk(_ctx: DiscoveryContext): Promise<boolean> {
    return true;
  }

  async preflight(ctx: DiscoveryContext): Promise<PreflightResult> {
    const ok = await this.authOk(ctx).catch(() => false);
    return { ok, exitCode: ok ? 0 : 1 };
  }

  async captureActiveSessionId(row: SessionRow, ctx: DiscoveryContext): Promise<CaptureResult> {
    const claimed = new Set((ctx.siblingClaimedIds ?? []).map((i) => this.canonical(i) ?? i));
    const { epoch: given, siblingClaimedIds: _claimed, ...base } = ctx;
    const epoch = given ?? row.herdr_session_epoch ?? undefined;
    const all = await this.discover(base);
    const fresh = epoch === undefined ? new Set(all) : new Set(await this.discover({ ...base, epoch }));
    const candidates = await Promise.all(
      all.map(async (id) => ({ id, verified: await this.verifyArtifact(id, base, 'discover'), newer: fresh.has(id), claimed: claimed.has(id) })),
    );
    return decideCapture(candidates);
  }
}
