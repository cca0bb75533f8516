import { formatArtifact } from '../../src/purge/artifact.js';
// One try of the swap attack: a deep conversation tree (Claude or Codex), a victim dir outside every agent root, a real
// swapper process swapping every directory level of the tree for a link to the victim while the purge runs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { ClaudeAdapter } from '../../src/agents/claude/claude-adapter.js';
import { claudeProjectKey } from '../../src/agents/claude/project-key.js';
import { CodexAdapter } from '../../src/agents/codex/codex-adapter.js';
import { NodeClock } from '../../src/node/node-clock.js';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import type { FileSystemPort } from '../../src/ports/fs.js';
import type { Ports } from '../../src/ports/index.js';
import { PurgeService } from '../../src/purge/purge-service.js';
import { FakeHerdr } from '../../src/testing/herdr/fake-herdr.js';
import { FakeProcessTable } from '../../src/testing/process/fake-process-table.js';
import { buildCodexHome, freshV7, rolloutPath } from './adapter-codex-home.js';
import { swapAtCall } from './swap-at-call.js';
import { fillVictim, startSwapper, victimLosses } from './swap-attack.js';

export type SwapAgent = 'claude' | 'codex';
export type SwapVia = 'adapter' | 'service';

export interface SwapTry {
  /** Victim files a redirected removal deleted (must be none). */
  lost: string[];
  /** What the purge reported as staying. */
  residual: string[];
  /** How many swaps the swapper made during the purge. */
  swaps: number;
}

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

// No process holds anything (the in-use check is not what is attacked here): an empty process table keeps a try fast.
function ports(fs: FileSystemPort): Ports {
  return { fs, proc: new FakeProcessTable([]), herdr: new FakeHerdr(), clock: new NodeClock() };
}

interface Stage {
  home: string;
  env: Record<string, string>;
  id: string;
  /** Every directory level of the tree, to be swapped. */
  swap: string[];
  /** A victim file named like one of the conversation's (relative to the victim dir). */
  victimExtra?: string;
}

// Claude: file-history/<id>/…, projects/<key>/<id>/subagents, and the tmp root's claude-0/<key>/<id>/tasks, deep.
function claudeStage(root: string): Stage {
  const id = crypto.randomUUID();
  const home = join(root, 'home');
  const ws = join(root, 'ws');
  const tmp = join(root, 'tmp');
  mkdirSync(ws, { recursive: true });
  const c = join(home, '.claude');
  const key = claudeProjectKey(ws);
  const fh = join(c, 'file-history', id);
  const sub = join(c, 'projects', key, id, 'subagents');
  const t = join(tmp, 'claude-0', key, id);
  for (const f of ['a@v1', 'b@v1', 'v2/c@v2', 'v2/deep/d@v3', 'v2/deep/e@v3']) put(join(fh, f), 'old file');
  put(join(sub, 'agent-1.jsonl'), '{}\n');
  put(join(sub, 'nested', 'agent-2.jsonl'), '{}\n');
  put(join(t, 'tasks', 'b1.output'), 'task out');
  put(join(t, 'tasks', 'more', 'b2.output'), 'task out');
  const rec = { sessionId: id, cwd: ws, type: 'user', message: { role: 'user', content: 'hi' }, timestamp: '2026-11-30T00:00:00.000Z' };
  put(join(c, 'projects', key, `${id}.jsonl`), `${JSON.stringify(rec)}\n`);
  const swap = [fh, join(fh, 'v2'), join(fh, 'v2', 'deep'), join(c, 'projects', key, id), sub, join(tmp, 'claude-0', key), t, join(t, 'tasks')];
  return { home, env: { TMPDIR: tmp }, id, swap };
}

// Codex: the rollout under sessions/YYYY/MM/DD; each date dir is swapped, and the victim holds a file of the rollout's name.
function codexStage(root: string, victim: string): Stage {
  const id = freshV7();
  const home = join(root, 'home');
  const spec = { id, cwd: join(root, 'ws'), updated: 1_790_000_000 };
  buildCodexHome(home, [spec], { db: false });
  const rollout = rolloutPath(home, spec);
  writeFileSync(join(victim, basename(rollout)), 'precious rollout');
  const dd = dirname(rollout);
  return { home, env: { CODEX_HOME: join(home, '.codex') }, id, swap: [dirname(dirname(dd)), dirname(dd), dd], victimExtra: basename(rollout) };
}

/** A stage of `agent` in a fresh root beside its filled victim dir, for one try; the root is removed after `body`. */
interface SwapStageRun {
  victim: string;
  names: string[];
  stage: Stage;
  ctx: { workspace: string; home: string; env: Record<string, string> };
}

async function withSwapStage<T>(agent: SwapAgent, prefix: string, body: (run: SwapStageRun) => Promise<T>): Promise<T> {
  const root = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  try {
    const victim = join(root, 'victim');
    const names = fillVictim(victim);
    const stage = agent === 'claude' ? claudeStage(root) : codexStage(root, victim);
    if (stage.victimExtra !== undefined) names.push(stage.victimExtra);
    return await body({ victim, names, stage, ctx: { workspace: join(root, 'ws'), home: stage.home, env: stage.env } });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function adapterOf(agent: SwapAgent, fs: FileSystemPort): ClaudeAdapter | CodexAdapter {
  return agent === 'claude' ? new ClaudeAdapter(ports(fs)) : new CodexAdapter(ports(fs));
}

/**
 * One deterministic try: the directory `level` (an index into the stage's swap list) is swapped for a link right before
 * the k-th filesystem call of the purge through the adapter; returns the victim files lost and the number of calls made.
 */
export async function swapAtCallTry(agent: SwapAgent, level: number, k: number): Promise<{ lost: string[]; calls: number; residual: string[] }> {
  return withSwapStage(agent, 'mam-swapk-', async ({ victim, names, stage, ctx }) => {
    const spy = swapAtCall(new NodeFileSystem(), k, stage.swap[level % stage.swap.length] as string, victim);
    const adapter = adapterOf(agent, spy.fs);
    await adapter.purgeArtifacts(stage.id, ctx);
    const calls = spy.calls();
    const residual = (await adapter.residualArtifacts(stage.id, ctx)).map((r) => formatArtifact(r, { reason: true }));
    return { lost: victimLosses(victim, names), calls, residual };
  });
}

/** How many directory levels a stage of `agent` swaps. */
export const SWAP_LEVELS: Readonly<Record<SwapAgent, number>> = { claude: 8, codex: 3 };

/** Runs one try and disposes of it; `fs` defaults to the real port. */
export async function swapTry(agent: SwapAgent, via: SwapVia, fs: FileSystemPort = new NodeFileSystem()): Promise<SwapTry> {
  return withSwapStage(agent, 'mam-swap-', async ({ victim, names, stage, ctx }) => {
    const swapper = await startSwapper(victim, stage.swap);
    let residual: string[] = [];
    let swaps = 0;
    try {
      if (via === 'adapter') {
        const adapter = adapterOf(agent, fs);
        await adapter.purgeArtifacts(stage.id, ctx);
        residual = (await adapter.residualArtifacts(stage.id, ctx)).map((r) => formatArtifact(r, { reason: true }));
      } else {
        const result = await new PurgeService({ ports: ports(fs) }).purge(agent, stage.id, { home: stage.home, workspace: ctx.workspace, env: stage.env });
        residual = result.kind === 'purged' ? result.residual.map((r) => formatArtifact(r, { reason: true })) : [`(${result.kind})`];
      }
    } finally {
      swaps = await swapper.stop();
    }
    return { lost: victimLosses(victim, names), residual, swaps };
  });
}
