import type { ArtifactPath } from '../common/artifacts.js';
import { BaseAdapter } from '../common/base-adapter.js';
import { psHint } from '../common/in-use.js';
import type { DiscoveryContext, PreflightResult } from '../types.js';

/** Long enough for a cold `grok --version`; a CLI that takes longer is taken as not able to start. */
const AUTH_TIMEOUT_MS = 15_000;

/**
 * Grok (pre-assigned: the library chooses the id, `grok --resume <id>` resumes it). Its on-disk layout is not known (no
 * CLI could be installed, the reference system records none): it discovers and verifies nothing and purges nothing, and
 * guards a conversation by command lines and the caller's `GROK_SESSION_ID` only (see `src/adapters/grok/README.md`).
 * @example
 * ```ts
 * const grok = getAdapter('grok');
 * await grok.conversationInUse(id, { workspace: '/repo', homeDir: '/home/me' }); // a process naming the id, or the caller's session
 * ```
 * @public
 */
export class GrokAdapter extends BaseAdapter {
  /** Always `grok`. */
  readonly name = 'grok' as const;
  /** Pre-assigned: mam passes a fresh uuid v4 as `--session-id`. */
  readonly idLifecycle = 'pre_assigned' as const;
  /** The variable that carries the session id in grok's tool shells: `GROK_SESSION_ID`. */
  override readonly sessionEnvVar = 'GROK_SESSION_ID';

  /** The CLI arguments that resume a conversation (`grok --resume <id>`), empty for an implausible id. */
  resumeArgs(id: string): string[] {
    const c = this.canonical(id);
    return c === null ? [] : ['--resume', c];
  }

  /** Nothing on disk is known to record a grok conversation, so there is no candidate to offer. */
  async discover(_ctx: DiscoveryContext): Promise<string[]> {
    return [];
  }

  /** No artifact can be checked, so no id can honestly be said to be on disk. */
  async verifyArtifact(_id: string, _ctx: DiscoveryContext, _mode?: 'verify' | 'discover'): Promise<boolean> {
    return false;
  }

  /** No artifact path is known: purge removes nothing, residual and hasArtifacts find nothing. */
  protected async artifactPaths(): Promise<ArtifactPath[]> {
    return [];
  }

  /** `ps` for the canonical id; nothing for an implausible one (a hint is a command a person may paste into a shell). */
  override inUseHints(id: string, _ctx: DiscoveryContext): string[] {
    const c = this.canonical(id);
    return c === null ? [] : [psHint(c)];
  }

  /** `grok --version` exits 0 under this home (the reference preflight ran the binary and failed the create on its exit code). */
  override async authOk(ctx: DiscoveryContext): Promise<boolean> {
    return (await this.preflight(ctx)).ok;
  }

  /** `grok --version` under the context's home must exit 0; its exit code is the create's (1 when it cannot run at all). */
  override async preflight(ctx: DiscoveryContext): Promise<PreflightResult> {
    try {
      const env = { ...(ctx.env ?? this.ports.proc.env()), HOME: ctx.homeDir };
      const res = await this.ports.proc.run('grok', ['--version'], { env, timeoutMs: AUTH_TIMEOUT_MS });
      return res.failed ? { ok: false, exitCode: res.exitCode !== null && res.exitCode !== 0 ? res.exitCode : 1 } : { ok: true, exitCode: 0 };
    } catch {
      return { ok: false, exitCode: 1 };
    }
  }
}
