import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverCommand } from '../../src/cli/commands/discover.js';
import { purgeCommand } from '../../src/cli/commands/purge.js';
import { materializeStage } from '../helpers/real-stage.js';
import { MAM_BIN } from '../helpers/mam-bin.js';

const quiet = { stdout: (): void => undefined, stderr: (): void => undefined };

let home: string;
const children: ChildProcess[] = [];

// The caller's environment without any agent session variable (the test runner may itself run inside an agent).
function env(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const e: Record<string, string | undefined> = { ...process.env, HOME: home };
  for (const k of Object.keys(e)) if (/SESSION_ID|CONVERSATION_ID|CODEX_THREAD_ID/.test(k)) delete e[k];
  return { ...e, ...extra };
}

function mam(args: string[], extra: Record<string, string> = {}): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [MAM_BIN, ...args], { encoding: 'utf8', env: env(extra) });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function agyConversation(id: string): string[] {
  const root = join(home, '.gemini', 'antigravity-cli');
  const files = [join(root, 'conversations', `${id}.db-wal`), join(root, 'annotations', `${id}.pbtxt`), join(root, 'presence', `${id}.lock`)];
  for (const f of files) {
    mkdirSync(join(f, '..'), { recursive: true });
    writeFileSync(f, 'x');
  }
  return files;
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mam-cli-purge-'));
});
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

describe('mam purge', () => {
  it('purges (exit 0) and prints {kind, agent, purged, residual, inUse}', () => {
    const id = randomUUID();
    const files = agyConversation(id);
    const r = mam(['purge', 'auto', id, '--home', home, '--json']);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out) as { kind: string; agent: string; purged: string[]; residual: string[]; inUse: boolean };
    expect(out).toMatchObject({ kind: 'purged', agent: 'agy', residual: [], inUse: false });
    expect([...out.purged].sort()).toEqual([...files].sort());
    for (const f of files) expect(existsSync(f)).toBe(false);
  });

  it('refuses while a live process names the id (exit 4), removing nothing', async () => {
    const id = randomUUID();
    const files = agyConversation(id);
    const holder = spawn(process.execPath, ['-e', 'console.log("ready"); setInterval(() => {}, 1e6)', '--', '--conversation', id], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(holder);
    await new Promise((resolve) => holder.stdout?.once('data', resolve));
    const r = mam(['purge', 'agy', id, '--home', home, '--json']);
    expect(r.code, r.err).toBe(4);
    expect(JSON.parse(r.out)).toMatchObject({ kind: 'in-use', agent: 'agy', inUse: true, holders: [expect.objectContaining({ pid: holder.pid })] });
    for (const f of files) expect(existsSync(f)).toBe(true);
  });

  it('refuses from the session\'s own shell (exit 4)', () => {
    const id = randomUUID();
    agyConversation(id);
    expect(mam(['purge', 'agy', id, '--home', home, '--json'], { ANTIGRAVITY_CONVERSATION_ID: id }).code).toBe(4);
  });

  it('says unresolved (exit 5) for an id nobody has, and usage (exit 2) for a bad call', async () => {
    expect(mam(['purge', 'auto', randomUUID(), '--home', home, '--json'])).toMatchObject({ code: 5 });
    expect(await purgeCommand(['auto', 'memory', '--home', home, '--json'], quiet)).toBe(5);
    expect(await purgeCommand(['qwen', randomUUID(), '--home', home], quiet)).toBe(2);
    expect(await purgeCommand(['auto'], quiet)).toBe(2);
    expect(await purgeCommand(['auto', randomUUID(), '--frobnicate'], quiet)).toBe(2);
  });
});

describe('mam discover', () => {
  it('lists a workspace\'s conversations from the real Codex files, newest first', () => {
    const stage = materializeStage('codex/03-two-sessions', join(home, 'root'));
    const ws = stage.expected.conversations[1]?.workspace as string;
    const r = spawnSync(process.execPath, [MAM_BIN, 'discover', 'codex', '--workspace', ws, '--home', stage.home, '--json'], { encoding: 'utf8', env: { ...env(), ...stage.env } });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ kind: 'discovered', agent: 'codex', workspace: ws, ids: ['01a229e4-5cbc-7f60-86ff-abaf22a4b8e4'] });
  });

  it('exits 2 on an unknown agent or a bad epoch', async () => {
    expect(await discoverCommand(['CLAUDE', '--workspace', home], quiet)).toBe(2);
    expect(await discoverCommand(['claude', '--workspace', home, '--epoch', 'soon'], quiet)).toBe(2);
  });
});
