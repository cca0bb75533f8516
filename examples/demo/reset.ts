// Reset through the fake herdr executable: a sandbox with three live fake agents (claude, codex, opencode) registered
// `running`; a dry run that lists the plan and touches nothing, then the real run one target at a time, and its table.
import { readFileSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { getAdapter, nodePorts, recordedId, ResetPlanner } from '../../src/index.js';
import { buildSandbox, type Sandbox } from '../../src/testing/index.js';
import type { Cleanup } from './cleanup.js';
import { block, check, line, short } from './ui.js';

const TIMEOUTS = { captureMs: 8000, exitMs: 8000, readyMs: 8000, pollMs: 100 };

const SESSIONS = [
  { name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer' },
  { name: 'coder-codex-01', agent: 'codex', role: 'coder' },
  { name: 'tester-opencode-01', agent: 'opencode', role: 'tester' },
] as const;

/** Size and mtime of every entry under `dir`: equal snapshots mean nothing was written, created or removed. */
async function treeSnapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const s = await lstat(p, { bigint: true });
      out.set(p, `${s.size}:${s.mtimeNs}`);
      if (e.isDirectory()) await walk(p);
    }
  };
  await walk(dir);
  return out;
}

function planner(sb: Sandbox): ResetPlanner {
  return new ResetPlanner(sb.workspace, { ports: nodePorts({ env: sb.env, herdrBin: sb.herdrBin }), lifecycle: { home: sb.home, env: sb.env, timeouts: TIMEOUTS } });
}

const spyCount = (sb: Sandbox): number => readFileSync(sb.spyLogPath, 'utf8').split('\n').filter((l) => l !== '').length;

/** Builds the sandbox: the fake herdr and agents installed, each session started through herdr, its id captured and pinned. */
export async function startAgents(dir: string, cleanup: Cleanup): Promise<Sandbox> {
  const sb = await buildSandbox(dir, { sessions: SESSIONS });
  cleanup.defer(() => sb.stopAll());
  for (const s of sb.sessions) line(`${s.name.padEnd(19)} pid ${String(s.pid).padEnd(7)} herdr ${s.herdrWorkspace}/${s.paneId} running, id ${short(s.id)}`);
  check(sb.sessions.length === 3 && sb.sessions.every((s) => s.id !== ''), 'three agents run with their ids recorded');
  return sb;
}

/** `mam reset --dry-run`: the plan, and proof that neither the sandbox tree nor herdr saw a change. */
export async function dryRunReset(sb: Sandbox): Promise<void> {
  const before = await treeSnapshot(sb.dir);
  const calls = spyCount(sb);
  const out = await planner(sb).run({ dryRun: true, callerEnv: sb.env });
  check(out.exitCode === 0 && out.kind === 'dry-run', 'the dry run exits 0');
  block(out.message.replace(/ old_created_at=\S+/g, ''));
  for (const s of sb.sessions) check(out.message.includes(`target: ${s.name} agent=${s.agent}`) && out.message.includes(`old_id=${s.id}`), `the plan lists ${s.name} with its id`);
  const after = await treeSnapshot(sb.dir);
  const changed = [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k));
  check(changed.length === 0, `the dry run touched nothing (changed: ${changed.join(', ')})`);
  check(spyCount(sb) === calls, 'the dry run made no herdr call');
  line(`tree snapshot: ${before.size} entries, identical after; herdr calls: ${calls} before, ${calls} after`);
}

/** `mam reset --yes`: each agent stopped, its old conversation purged, a fresh one started and pinned; the table. */
export async function realReset(sb: Sandbox, signal: AbortSignal): Promise<void> {
  const old = new Map(sb.sessions.map((s) => [s.name, s.id]));
  const out = await planner(sb).run({ yes: true, callerEnv: sb.env, signal, onTrace: (l) => line(l) });
  if (signal.aborted) return;
  check(out.exitCode === 0 && out.kind === 'done', `the reset exits 0 (got ${out.exitCode} ${out.kind}: ${out.message})`);
  block(out.table);
  const rows = (await sb.registry.snapshot()).herdr_sessions;
  for (const s of sb.sessions) {
    const row = rows.find((r) => r.name === s.name);
    const fresh = row === undefined ? null : recordedId(row);
    check(row?.status === 'running' && fresh !== null && fresh !== s.id, `${s.name} runs with a new id recorded`);
    const adapter = getAdapter(s.agent, { ports: sb.ports() });
    check(!(await adapter.verifyArtifact(s.id, sb.context(), 'verify')), `${s.name}'s old conversation is gone`);
    check(await adapter.verifyArtifact(fresh, sb.context(), 'verify'), `${s.name}'s new conversation is on disk`);
    check(out.table.includes(s.id) && out.table.includes(fresh), `the table shows ${s.name}'s old and new ids`);
    line(`${s.name.padEnd(19)} ${short(old.get(s.name))} (gone from disk) → ${short(fresh)} (recorded, on disk)`);
  }
}
