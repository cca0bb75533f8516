import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { normalizeAgentId } from '../../ids/agent-id.js';
import { AGENT_NAMES, type AgentName, isAgentName } from '../../ids/agent-names.js';
import { seedAgy, seedCodex, seedHermes, seedOpencode } from './seed-dbs.js';
import { seedClaude, seedGrok } from './seed-files.js';
import { seedGemini } from './seed-gemini.js';
import { mintId, type SeedPlan } from './seed-layout.js';
import type { SeedSqliteState } from './seed-sqlite.js';
import { SandboxError } from './sandbox-error.js';

/**
 * Options of `Sandbox.seed`.
 * @public
 */
export interface SeedOptions {
  /** The directory the conversation ran in (absolute, existing; default the sandbox workspace). */
  workspace?: string;
  /** Its id (default a fresh one in the agent's own shape: uuid v4, uuid v7, `ses_…`, Hermes' `YYYYMMDD_HHMMSS_xxxxxx`). */
  id?: string;
  /**
   * Where its database rows are left, for the agents that keep them in SQLite (codex, hermes, opencode, agy; ignored
   * otherwise). Default what the real CLI leaves after a clean exit: `checkpointed` for codex and hermes, `wal-only` for
   * opencode and agy (they never checkpoint).
   */
  sqlite?: SeedSqliteState;
  /** When it started (epoch ms; default the sandbox clock's now). */
  at?: number;
  /** Its first prompt (default `hello`). */
  prompt?: string;
}

const WRITERS: Record<AgentName, (plan: SeedPlan) => void> = {
  claude: seedClaude, agy: seedAgy, codex: seedCodex, grok: seedGrok, hermes: seedHermes, opencode: seedOpencode, gemini: seedGemini,
};

const DEFAULT_SQLITE: Record<AgentName, SeedSqliteState> = {
  claude: 'checkpointed', grok: 'checkpointed', codex: 'checkpointed', hermes: 'checkpointed', opencode: 'wal-only', agy: 'wal-only', gemini: 'checkpointed',
};

function invalid(message: string, data: Record<string, unknown>): SandboxError {
  return new SandboxError('SANDBOX_INVALID_OPTIONS', `seed: ${message}`, data);
}

/**
 * Lays one finished conversation of `agent` down under `home` exactly where and how its real CLI leaves it, without
 * starting a process; returns its id. Synchronous: every write is done when it returns.
 */
export function seedConversation(at: { home: string; workspace: string; env: Readonly<Record<string, string>>; now: number }, agent: AgentName, opts: SeedOptions = {}): string {
  if (!isAgentName(agent)) throw invalid(`unknown agent ${JSON.stringify(agent)} (expected one of ${AGENT_NAMES.join(', ')})`, { agent });
  if (typeof opts !== 'object' || opts === null) throw invalid('options must be an object', {});
  const ws = opts.workspace ?? at.workspace;
  if (typeof ws !== 'string' || !isAbsolute(ws)) throw invalid(`workspace must be an absolute path: ${JSON.stringify(ws)}`, { workspace: ws });
  let cwd: string;
  try {
    cwd = realpathSync(ws);
    if (!statSync(cwd).isDirectory()) throw new Error('not a directory');
  } catch (err) {
    throw new SandboxError('SANDBOX_INVALID_OPTIONS', `seed: workspace ${ws} is not an existing directory (a CLI runs in one)`, { workspace: ws }, { cause: err });
  }
  const sqlite = opts.sqlite ?? DEFAULT_SQLITE[agent];
  if (sqlite !== 'checkpointed' && sqlite !== 'wal-only') throw invalid(`sqlite must be "checkpointed" or "wal-only": ${JSON.stringify(sqlite)}`, { sqlite });
  const now = opts.at ?? at.now;
  if (!Number.isSafeInteger(now) || now < 0) throw invalid(`at must be epoch milliseconds: ${String(now)}`, { at: now });
  const id = opts.id === undefined ? mintId(agent, now) : normalizeAgentId(agent, opts.id);
  if (id === null) throw invalid(`${JSON.stringify(opts.id)} is no ${agent} id`, { agent, id: opts.id });
  const prompt = opts.prompt ?? 'hello';
  if (typeof prompt !== 'string' || prompt === '') throw invalid('prompt must be a non-empty string', { prompt });
  WRITERS[agent]({ agent, home: at.home, cwd, id, now, sqlite, prompt, env: at.env });
  return id;
}
