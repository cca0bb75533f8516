// One on-disk conversation per agent with a layout (claude, codex, opencode from the real fixture stages; agy and
// hermes from their reference-layout stages; grok from the derived grok-build fixture), built once and restored byte-for-byte at the same root before each
// faulted purge (the stages name their root in absolute paths, links and rows, so a copy elsewhere would not do).
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentName } from '../../src/ids/agent-names.js';
import { NodeClock } from '../../src/node/node-clock.js';
import { NodeProcessPort } from '../../src/node/node-process.js';
import type { FileSystemPort } from '../../src/ports/fs.js';
import { PurgeService } from '../../src/purge/purge-service.js';
import { FakeHerdr } from '../../src/testing/herdr/fake-herdr.js';
import { FakeProcessTable } from '../../src/testing/process/fake-process-table.js';
import { buildAgyStage } from './adapter-agy-stage.js';
import { GROK_IDS, materializeGrokStage } from './adapter-grok-stage.js';
import { buildHermesStage } from './adapter-hermes-stage.js';
import { opencodeStage } from './adapter-opencode-stage.js';
import { materializeStage, type RealStage } from './real-stage.js';

/** The agents whose conversations live on disk, each with the stage its fault sweep runs on. */
export const FAULT_AGENTS = ['claude', 'codex', 'opencode', 'agy', 'hermes', 'grok'] as const satisfies readonly AgentName[];

/** A conversation ready to purge, and how to put its stage back as it was. */
export interface FaultStage {
  agent: AgentName;
  id: string;
  home: string;
  workspace: string;
  env: Record<string, string | undefined>;
  /** Puts every byte of the stage back as built. */
  restore(): void;
  dispose(): Promise<void>;
}

const REAL: Partial<Record<AgentName, string>> = {
  claude: 'claude/01-after-runs',
  codex: 'codex/01-after-exec-and-resume',
  opencode: 'opencode/03-two-sessions-before-delete',
};

// The real OpenCode stages keep everything in SQLite; a migrated home may still hold OpenCode ≤ 1.1 JSON storage,
// whose files give the purge filesystem mutations to fail: two messages with two parts each, keyed files, the session
// file (its `Session.Info`, which records the session's directory, as OpenCode ≤ 1.1 wrote it).
function addLegacyStorage(home: string, id: string, workspace: string): void {
  const storage = join(home, '.local/share/opencode/storage');
  const put = (rel: string, text = '{}'): void => {
    mkdirSync(join(storage, rel, '..'), { recursive: true });
    writeFileSync(join(storage, rel), text);
  };
  for (const msg of ['msg_dd615360cffe0000000000000A', 'msg_dd615360cffe0000000000000B']) {
    put(`message/${id}/${msg}.json`);
    for (const part of ['prt_1', 'prt_2']) put(`part/${msg}/${part}.json`);
  }
  for (const kind of ['session_diff', 'todo']) put(`${kind}/${id}.json`);
  const info = { id, version: '1.1.0', projectID: 'global', directory: workspace, title: 'staged', time: { created: 1, updated: 2 } };
  put(`session/global/${id}.json`, JSON.stringify(info));
}

// The present conversation with a workspace and the most files (the most mutations to fail).
function richest(s: RealStage): { id: string; workspace: string } {
  const present = s.expected.conversations.filter((c) => c.status === 'present' && c.workspace !== null);
  const conv = present.sort((a, b) => b.files.length - a.files.length)[0];
  if (conv === undefined || conv.workspace === null) throw new Error(`${s.expected.stage} has no present conversation`);
  return { id: conv.id, workspace: conv.workspace };
}

/** The caller's env without any session variable (the test runner's own session cannot refuse), HOME set. */
export function cleanEnv(home: string): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, HOME: home };
  for (const k of Object.keys(env)) if (/SESSION_ID|CONVERSATION_ID|CODEX_THREAD_ID|THREAD_ID/.test(k)) delete env[k];
  return env;
}

/**
 * A purge service on the given filesystem port, an in-process fake herdr, and processes: by default an empty fake
 * process table (no process plays a staged conversation, and the faults are the filesystem's: a real `ps`/`lsof` scan
 * per purge proves nothing more here and costs a second each); `real` for the real process table (clean env).
 */
export function faultService(stage: FaultStage, fs: FileSystemPort, procs: 'fake' | 'real' = 'fake'): PurgeService {
  const proc = procs === 'real' ? new NodeProcessPort({ env: cleanEnv(stage.home) }) : new FakeProcessTable();
  return new PurgeService({ ports: { fs, proc, herdr: new FakeHerdr(), clock: new NodeClock() } });
}

async function build(agent: AgentName, root: string): Promise<Omit<FaultStage, 'restore' | 'dispose'> & { stop?: () => Promise<void> }> {
  const real = REAL[agent];
  if (real !== undefined) {
    // OpenCode's stage puts an empty bin dir first on PATH: no real `opencode` is ever run.
    const s = agent === 'opencode' ? opencodeStage(real, root) : materializeStage(real, root);
    const env = agent === 'opencode' ? { ...s.env, PATH: join(root, 'empty-bin') } : s.env;
    const { id, workspace } = richest(s);
    if (agent === 'opencode') addLegacyStorage(s.home, id, workspace);
    return { agent, id, home: s.home, workspace, env: { ...env, HOME: s.home } };
  }
  if (agent === 'agy') {
    const s = await buildAgyStage(root);
    const conv = s.conversations[0];
    if (conv === undefined || conv.workspace === null) throw new Error('agy stage has no first conversation');
    return { agent, id: conv.id, home: s.home, workspace: conv.workspace, env: { HOME: s.home } };
  }
  if (agent === 'hermes') {
    const s = await buildHermesStage(root, 'clean');
    const conv = s.sessions[0];
    if (conv === undefined) throw new Error('hermes stage has no session');
    return { agent, id: conv.id, home: s.home, workspace: conv.workspace, env: { HOME: s.home }, stop: () => s.fixture.stop() };
  }
  if (agent === 'grok') {
    // The parent with a subagent child: two session dirs, the most mutations to fail.
    const s = materializeGrokStage(root);
    return { agent, id: GROK_IDS.a2, home: s.home, workspace: s.wsA, env: { HOME: s.home } };
  }
  throw new Error(`no fault stage for ${agent}`);
}

/** Builds the stage of `agent` under a new temp root and keeps a pristine copy beside it. */
export async function buildFaultStage(agent: AgentName): Promise<FaultStage> {
  const base = mkdtempSync(join(tmpdir(), `mam-fault-${agent}-`));
  const root = join(base, 'root');
  const pristine = join(base, 'pristine');
  const { stop, ...stage } = await build(agent, root);
  await stop?.();
  const copy = (from: string, to: string): void => {
    cpSync(from, to, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  };
  copy(root, pristine);
  return {
    ...stage,
    restore: () => {
      rmSync(root, { recursive: true, force: true });
      copy(pristine, root);
    },
    dispose: async () => {
      rmSync(base, { recursive: true, force: true });
    },
  };
}
