// Purge over the real homes: refused while a live process uses the conversation (nothing removed), then done for real; the
// other conversations of each home stay whole, and ids that are not plausible reach no path.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { type AgentName, artifactPath, formatArtifact, getAdapter, nodePorts, normalizeAgentId, PurgeService } from '../../src/index.js';
import type { Cleanup } from './cleanup.js';
import type { Pinned } from './pin-status.js';
import type { RealHome, RealHomes } from './real-homes.js';
import { check, line, short } from './ui.js';

function homeOf(real: RealHomes, agent: AgentName): RealHome {
  const h = real.homes.find((x) => x.agent === agent);
  check(h !== undefined, `a home for ${agent}`);
  return h;
}

const portsOf = (h: RealHome) => nodePorts({ env: { ...process.env, ...h.stage.env } });
const filesOf = (h: RealHome, id: string): string[] => (h.stage.expected.conversations.find((c) => c.id === id)?.files ?? []).map((f) => h.stage.abs(f.replace(/\/$/, '')));

// A real process that uses the conversation: one naming it on its command line (as `claude --resume <id>` does), or one
// holding one of its files open (as a running CLI holds its transcript).
async function holder(cleanup: Cleanup, how: { names: string } | { opens: string }): Promise<ChildProcess> {
  const wait = 'console.log("ready"); setInterval(() => {}, 1e6)';
  // The open-file holder gets its path through the environment, so its command line names nothing.
  const args = 'names' in how ? ['-e', wait, '--', '--resume', how.names] : ['-e', `require("fs").openSync(process.env.DEMO_HOLD, "r"); ${wait}`];
  const env = 'opens' in how ? { ...process.env, DEMO_HOLD: how.opens } : process.env;
  const proc = cleanup.child(spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env }));
  await new Promise<void>((resolve, reject) => {
    proc.stdout?.once('data', () => resolve());
    proc.once('exit', (c) => reject(new Error(`holder exited early (${c})`)));
  });
  return proc;
}

// Reaped, so gone from the process table (and its open files) before the next look.
async function kill(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const gone = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGKILL');
  await gone;
}

/** Two refused purges (a command line naming the id, an open transcript): exit 4, every file still there. */
export async function refusedPurges(real: RealHomes, pinned: readonly Pinned[], cleanup: Cleanup): Promise<void> {
  for (const p of pinned.filter((x) => x.name === 'reviewer-claude-01' || x.name === 'coder-codex-01')) {
    const h = homeOf(real, p.agent);
    const files = filesOf(h, p.id);
    const rollout = files.find((f) => f.endsWith('.jsonl'));
    check(rollout !== undefined, `${p.name}'s transcript is known`);
    const proc = await holder(cleanup, p.agent === 'claude' ? { names: p.id } : { opens: rollout });
    const pid = proc.pid ?? -1;
    const ctx = { workspace: p.cwd, home: h.stage.home, env: h.stage.env };
    const seen = await getAdapter(p.agent, { ports: portsOf(h) }).inUseHolders(p.id, ctx);
    const mine = seen.find((s) => s.pid === pid);
    check(mine !== undefined, `${p.agent}'s in-use gate sees pid ${pid}`);
    const r = await new PurgeService({ ports: portsOf(h) }).purge(p.agent, p.id, { home: h.stage.home, env: h.stage.env });
    check(r.kind === 'in-use', `purge of ${p.name}'s conversation is refused while pid ${pid} uses it`);
    check(files.every((f) => existsSync(f)), 'a refused purge removed nothing');
    line(`purge ${p.agent} ${short(p.id)}: pid ${pid} (${mine.signal}${mine.detail === undefined ? '' : `: ${relative(h.stage.home, mine.detail)}`}) → in-use, exit 4; ${files.length} files untouched`);
    for (const hint of r.hints) line(`  to see it: ${hint}`);
    await kill(proc);
  }
}

/** Purges the conversations of every row but `keep`: removed to the last item, and nothing of any other conversation. */
export async function realPurges(real: RealHomes, pinned: readonly Pinned[], keep: string): Promise<void> {
  for (const p of pinned.filter((x) => x.name !== keep)) {
    const h = homeOf(real, p.agent);
    const files = filesOf(h, p.id);
    const r = await new PurgeService({ ports: portsOf(h) }).purge('auto', p.id, { home: h.stage.home, env: h.stage.env });
    check(r.kind === 'purged' && r.agent === p.agent && r.residual.length === 0, `${p.name}'s conversation is purged with no residual`);
    check(files.every((f) => !existsSync(f)), `every file of ${short(p.id)} is gone`);
    const adapter = getAdapter(p.agent, { ports: portsOf(h) });
    const ctx = { workspace: p.cwd, home: h.stage.home, env: h.stage.env };
    check(!(await adapter.verifyArtifact(p.id, ctx, 'verify')), `${short(p.id)} no longer verifies on disk`);
    const kinds = r.purged.map((a) => (a.kind === 'rows' ? formatArtifact(a) : relative(h.stage.home, a.path)));
    const mentions = r.mentions.map((m) => relative(h.stage.home, artifactPath(m))).join(', ') || 'none';
    line(`purge auto ${short(p.id)} → purged (${p.agent}), exit 0: ${kinds.length} items, residual none; shared files still naming it (kept): ${mentions}`);
    for (const k of kinds.slice(0, 4)) line(`  - ${k.length > 100 ? `${k.slice(0, 97)}…` : k}`);
    if (kinds.length > 4) line(`  - … ${kinds.length - 4} more`);
    const others = h.stage.expected.conversations.filter((c) => c.id !== p.id && c.status === 'present' && !pinned.some((x) => x.id === c.id && x.name !== keep));
    for (const o of others) {
      check(o.files.every((f) => existsSync(h.stage.abs(f.replace(/\/$/, '')))), `${short(o.id)} lost a file`);
      check(o.workspace !== null && (await adapter.verifyArtifact(o.id, { ...ctx, workspace: o.workspace }, 'verify')), `${short(o.id)} still verifies`);
    }
    line(`  the ${others.length} other ${p.agent} conversation(s) of this home still verify, every file in place`);
  }
}

/** Ids that are not plausible for the agent are refused before any path is built. */
export async function hostileIds(real: RealHomes): Promise<void> {
  const h = homeOf(real, 'claude');
  for (const bad of ['memory', '../x', '/etc']) {
    const r = await new PurgeService({ ports: portsOf(h) }).purge('claude', bad, { home: h.stage.home, env: h.stage.env });
    check(r.kind === 'unresolved' && normalizeAgentId('claude', bad) === null, `${bad} reaches no path`);
    line(`purge claude ${JSON.stringify(bad).padEnd(8)} → ${r.kind}, exit 5 (not a plausible claude id)`);
  }
}
