// `npm run demo`: what @mam/core can do today, run for real in a sandbox it builds itself under the system temp dir.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  HerdrCli,
  helperChain,
  idSpellings,
  nodePorts,
  normalizeAgentId,
  openReadonly,
  removeConfined,
  sanitizeHerdrAgentName,
  tryLock,
} from '../src/index.js';
import { installFakeHerdr } from '../src/testing/index.js';

const started = performance.now();
const sandbox = mkdtempSync(join(tmpdir(), 'mam-demo-'));
const ports = nodePorts();
const children: ChildProcess[] = [];
let step = 0;

function say(title: string): void {
  step += 1;
  console.log(`\n[${step}] ${title}`);
}
function line(text: string): void {
  console.log(`    ${text}`);
}
function fail(text: string): never {
  throw new Error(`demo check failed: ${text}`);
}

// A real child process; resolves once it printed "ready".
function child(args: string[]): Promise<ChildProcess> {
  const proc = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(proc);
  return new Promise((resolve, reject) => {
    proc.stdout?.on('data', (b: Buffer) => (b.toString().includes('ready') ? resolve(proc) : undefined));
    proc.on('exit', (code) => reject(new Error(`child exited early (${code})`)));
  });
}

async function ids(): Promise<void> {
  say('Ids: only a plausible id ever reaches a path');
  for (const [agent, id] of [['claude', 'A7800001-0000-4000-8000-000000000001'], ['opencode', 'ses_dd60eb913ffet4MKQWcgE6E3Sy'], ['claude', 'memory'], ['codex', '../x'], ['agy', '/etc']] as const) {
    const ok = normalizeAgentId(agent, id);
    line(`${agent.padEnd(8)} ${JSON.stringify(id).padEnd(40)} → ${ok === null ? 'rejected' : `${ok}  (command lines searched for: ${idSpellings(agent, id).length === 2 ? "lower and upper case" : "this exact id"})`}`);
  }
}

async function lineage(): Promise<void> {
  say('Process table and the caller\'s helper chain (the in-use check ignores it up to the nearest agent CLI)');
  const snapshot = await ports.proc.snapshot();
  const chain = helperChain(snapshot, ports.proc.selfPid());
  line(`${snapshot.length} processes read; this demo's chain: ${chain.chain.length} process(es) up to ${chain.agentAncestor === null ? 'the top (no agent CLI above us)' : `the agent CLI pid ${chain.agentAncestor.pid} (${chain.agentAncestor.comm})`}`);
}

async function holders(): Promise<void> {
  say('Open-file holders: a real process holding a lock file, its command line naming nothing');
  const lock = join(sandbox, 'presence', 'a7800001-0000-4000-8000-000000000001.lock');
  mkdirSync(join(sandbox, 'presence'));
  writeFileSync(lock, '');
  const holder = await child(['-e', `require('fs').openSync(${JSON.stringify(lock)}, 'r'); console.log('ready'); setInterval(() => {}, 1e6)`]);
  const found = await ports.proc.holders([lock, join(sandbox, 'presence', 'missing.lock')]);
  if (!found.some((h) => h.pid === holder.pid)) fail('the holder was not found');
  line(`holders(): pid ${holder.pid} (${found[0]?.command}) holds ${lock.slice(sandbox.length + 1)} — one lsof call for all paths`);
  holder.kill('SIGKILL');
}

async function sqlite(): Promise<void> {
  say('Read-only SQLite: rows only in -wal of a killed writer are read, the directory is left exactly as found');
  const dir = join(sandbox, 'codex');
  mkdirSync(dir);
  const db = join(dir, 'state_5.sqlite');
  const writer = await child([
    '-e',
    `const D=require('better-sqlite3'); const d=new D(${JSON.stringify(db)}); d.pragma('journal_mode=WAL'); d.pragma('wal_autocheckpoint=0');
     d.exec("CREATE TABLE threads(id TEXT PRIMARY KEY, cwd TEXT)"); d.exec("INSERT INTO threads VALUES ('019a2b3c-4d5e-7f60-8a1b-2c3d4e5f6a7b', '/home/dev/ws')");
     console.log('ready'); setInterval(() => {}, 1e6)`,
  ]);
  writer.kill('SIGKILL');
  await new Promise((r) => writer.once('exit', r));
  const before = readdirSync(dir).sort().join(' ');
  const handle = await openReadonly(db, { fs: ports.fs });
  const rows = handle.db.prepare('SELECT id, cwd FROM threads').all();
  await handle.close();
  const after = readdirSync(dir).sort().join(' ');
  if (rows.length !== 1 || before !== after) fail('WAL rows not seen or directory changed');
  line(`state ${handle.state}, read via ${handle.via}: ${rows.length} thread row; listing before = after: ${after}`);
}

async function confined(): Promise<void> {
  say('Confined removal: a linked directory inside an agent root is never followed');
  const root = join(sandbox, 'claude-config');
  const outside = join(sandbox, 'precious');
  mkdirSync(join(root, 'session-env', 'a7800001-0000-4000-8000-000000000001'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'keep.txt'), 'not an agent artifact');
  writeFileSync(join(root, 'session-env', 'a7800001-0000-4000-8000-000000000001', 'env'), 'X=1');
  symlinkSync(outside, join(root, 'session-env', 'a7800001-0000-4000-8000-000000000001', 'escape'));
  symlinkSync(outside, join(root, 'todos'));
  const removed = await removeConfined(ports.fs, root, join(root, 'session-env', 'a7800001-0000-4000-8000-000000000001'));
  const behind = await removeConfined(ports.fs, root, join(root, 'todos', 'keep.txt'));
  if (!existsSync(join(outside, 'keep.txt'))) fail('a file outside the root was removed');
  line(`removed ${removed.removed.length} entries (the inner link as a link), residual ${removed.residual.length}`);
  line(`a candidate behind the linked dir: removed ${behind.removed.length}, reported ${behind.residual.length}; the outside file is intact`);
}

async function herdr(): Promise<void> {
  say('herdr: the fake herdr executable answers the real CLI\'s argv; long row names are sanitised');
  const bin = await installFakeHerdr(join(sandbox, 'bin'), { statePath: join(sandbox, 'herdr-state.json'), spyLogPath: join(sandbox, 'herdr-spy.jsonl') });
  const cli = new HerdrCli({ bin });
  const ws = await cli.workspaceCreate({ cwd: sandbox, label: 'demo' });
  if (ws.kind !== 'ok') fail(`workspace create: ${JSON.stringify(ws)}`);
  const rowName = 'Reviewer-Claude-01 (night shift)';
  const name = sanitizeHerdrAgentName(rowName);
  const startedAgent = await cli.agentStart(name, { kind: 'claude', pane: ws.value.root_pane.pane_id, timeoutMs: 10_000 });
  const invalid = await cli.agentStart(rowName, { kind: 'claude', pane: ws.value.root_pane.pane_id });
  line(`row "${rowName}" → herdr name "${name}": ${startedAgent.kind}; the raw name → ${invalid.kind === 'error' ? invalid.code : invalid.kind}`);
  line(`presence: ${name} is ${await cli.agentPresence(name)}, "nobody" is ${await cli.agentPresence('nobody')}`);
}

async function lock(): Promise<void> {
  say('Cross-process lock: held by the OS, released if the holder dies');
  const path = join(sandbox, 'update-admission.lock');
  const first = tryLock(path);
  const second = tryLock(path);
  line(`first tryLock: ${first === null ? 'refused' : 'held'}; a second one while held: ${second === null ? 'refused' : 'held (wrong!)'}`);
  if (first === null || second !== null) fail('lock exclusion');
  first.release();
  const third = tryLock(path);
  line(`after release: ${third === null ? 'refused (wrong!)' : 'held'}`);
  third?.release();
}

try {
  console.log(`@mam/core demo — sandbox ${sandbox}`);
  for (const part of [ids, lineage, holders, sqlite, confined, herdr, lock]) await part();
  console.log(`\nDone in ${((performance.now() - started) / 1000).toFixed(1)} s. Adapters, registry, purge and reset come next (see CHANGELOG.md).`);
} finally {
  for (const c of children) c.kill('SIGKILL');
  rmSync(sandbox, { recursive: true, force: true });
}
