// `npm run demo`: @mam/core on files the real agent CLIs wrote (test/fixtures/real, copied into a sandbox under the system
// temp dir and rewritten to it), with real processes: discovery, a refused purge (a live holder), a real purge, and the
// safety helpers underneath. The sandbox is removed at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { getAdapter, nodePorts, normalizeAgentId, PurgeService, sanitizeHerdrAgentName, HerdrCli, type AgentName } from '../src/index.js';
import { installFakeHerdr } from '../src/testing/index.js';
import { materializeStage, type RealStage } from '../test/helpers/real-stage.js';

const started = performance.now();
const sandbox = mkdtempSync(join(tmpdir(), 'mam-demo-'));
const children: ChildProcess[] = [];
let step = 0;

const say = (title: string): void => console.log(`\n[${++step}] ${title}`);
const line = (text: string): void => console.log(`    ${text}`);
function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`demo check failed: ${what}`);
}
const short = (id: string): string => `${id.slice(0, id.startsWith('ses_') ? 16 : 8)}…`;

// A real process whose command line names `id`, as a resumed agent CLI would (`claude -r <id>`).
function holder(id: string): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['-e', 'console.log("ready"); setInterval(() => {}, 1e6)', '--', '--resume', id], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(proc);
  return new Promise((resolve, reject) => {
    proc.stdout?.once('data', () => resolve(proc));
    proc.once('exit', (code) => reject(new Error(`holder exited early (${code})`)));
  });
}

function stage(name: string): RealStage {
  const s = materializeStage(name, join(sandbox, name.replace('/', '-')));
  line(`${name}: ${s.expected.description ?? ''}`.slice(0, 150));
  return s;
}

async function discovery(agent: AgentName, s: RealStage): Promise<Map<string, string[]>> {
  const adapter = getAdapter(agent, { ports: nodePorts({ env: { ...process.env, ...s.env } }) });
  const byWorkspace = new Map<string, string[]>();
  for (const c of s.expected.conversations) {
    if (c.workspace === null || byWorkspace.has(c.workspace)) continue;
    const ids = await adapter.discover({ workspace: c.workspace, homeDir: s.home, env: s.env });
    byWorkspace.set(c.workspace, ids);
    const present = s.expected.conversations.filter((x) => x.workspace === c.workspace && x.status === 'present').map((x) => x.id);
    check(present.every((id) => ids.includes(id)), `${agent} discover misses a conversation of ${c.workspace}`);
    line(`${agent} discover ${relative(s.root, c.workspace) || '.'}: ${ids.length === 0 ? 'nothing' : ids.map(short).join(', ')}`);
  }
  return byWorkspace;
}

async function purgeDemo(agent: AgentName, s: RealStage, id: string): Promise<void> {
  const service = new PurgeService({ ports: nodePorts({ env: { ...process.env, ...s.env } }) });
  const files = s.expected.conversations.find((c) => c.id === id)?.files ?? [];
  const live = await holder(id);
  const refused = await service.purge(agent, id, { home: s.home, env: s.env });
  check(refused.kind === 'in-use' && files.every((f) => existsSync(s.abs(f.replace(/\/$/, '')))), 'a refused purge removed something');
  if (refused.kind === 'in-use') line(`purge ${agent} ${short(id)} while pid ${live.pid} resumes it → in-use (exit 4), nothing removed; hint: ${refused.hints.at(-1)}`);
  live.kill('SIGKILL');
  await new Promise((r) => live.once('exit', r));
  const done = await service.purge(agent, id, { home: s.home, env: s.env });
  check(done.kind === 'purged' && done.residual.length === 0, `${agent} purge left residual`);
  check(files.every((f) => !existsSync(s.abs(f.replace(/\/$/, '')))), 'a purged file is still there');
  if (done.kind === 'purged') {
    line(`holder gone → purged (exit 0): ${done.purged.length} items; residual none; shared files still naming it: ${done.mentions.length === 0 ? 'none' : done.mentions.map((m) => relative(s.home, m)).join(', ')}`);
    for (const p of done.purged.slice(0, 6)) line(`  - ${p.startsWith('/') ? relative(s.home, p) : p}`);
  }
  const others = s.expected.conversations.filter((c) => c.id !== id && c.status === 'present');
  check(others.every((c) => c.files.every((f) => existsSync(s.abs(f.replace(/\/$/, ''))))), 'another conversation lost a file');
  line(`the ${others.length} other conversation(s) of this home are intact`);
}

async function hostile(s: RealStage): Promise<void> {
  const service = new PurgeService({ ports: nodePorts({ env: { ...process.env, ...s.env } }) });
  for (const bad of ['memory', '../x', '/etc']) {
    const r = await service.purge('claude', bad, { home: s.home, env: s.env });
    line(`purge claude ${JSON.stringify(bad).padEnd(9)} → ${r.kind} (plausible id: ${normalizeAgentId('claude', bad) !== null}); memory/ dirs untouched`);
  }
}

async function herdr(): Promise<void> {
  const bin = await installFakeHerdr(join(sandbox, 'bin'), { statePath: join(sandbox, 'herdr-state.json') });
  const cli = new HerdrCli({ bin });
  const ws = await cli.workspaceCreate({ cwd: sandbox, label: 'demo' });
  check(ws.kind === 'ok', 'workspace create');
  if (ws.kind !== 'ok') return;
  const rowName = 'Reviewer-Claude-01 (night shift)';
  const name = sanitizeHerdrAgentName(rowName);
  const ok = await cli.agentStart(name, { kind: 'claude', pane: ws.value.root_pane.pane_id, timeoutMs: 10_000 });
  const raw = await cli.agentStart(rowName, { kind: 'claude', pane: ws.value.root_pane.pane_id });
  line(`row "${rowName}" → herdr name "${name}": ${ok.kind}; the raw name → ${raw.kind === 'error' ? raw.code : raw.kind}`);
  line(`presence: ${await cli.agentPresence(name)}; an unknown name: ${await cli.agentPresence('nobody')}`);
}

try {
  console.log(`@mam/core demo — sandbox ${sandbox}`);
  say('Real Claude Code 2.1 files (a 265-char workspace, a non-ASCII one, shared history)');
  const claude = stage('claude/02-after-tui');
  say('Discovery: each workspace finds exactly its own conversations, newest first');
  await discovery('claude', claude);
  say('Purge: refused while a live process resumes the conversation, then done for real');
  await purgeDemo('claude', claude, '3d7ae7f7-43d0-45fd-b249-98b30deef67a');
  say('Hostile ids reach no path');
  await hostile(claude);
  say('Real Codex 0.171 files (rows in six databases, shell snapshots holding secrets, a rollout)');
  const codex = stage('codex/03-two-sessions');
  await discovery('codex', codex);
  await purgeDemo('codex', codex, '01a229e4-5cbc-7f60-86ff-abaf22a4b8e4');
  say('Real OpenCode 1.18 files (shared SQLite DB: rows of one session removed, the rest kept)');
  const opencode = stage('opencode/03-two-sessions-before-delete');
  const ocIds = await discovery('opencode', opencode);
  const ocId = [...ocIds.values()].flat()[0];
  if (ocId !== undefined) await purgeDemo('opencode', opencode, ocId);
  say('herdr: the fake herdr executable answers the real CLI\'s argv; row names are sanitised');
  await herdr();
  console.log(`\nDone in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
} finally {
  for (const c of children) c.kill('SIGKILL');
  rmSync(sandbox, { recursive: true, force: true });
}
