// Issue 34, through the built bin as a user meets it: a usage error is exit 2 and one line without a stack (JSON on
// stdout under --json); every command's --json is one compact document with a `kind`; a library fault under --json is
// {"error":{"code","message","data"}} with exit 1; a full stdout (/dev/full) and a closed pipe end with one line on
// stderr and exit 1, never a stack trace.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/fs-temp.js';
import { MAM_BIN } from '../helpers/mam-bin.js';
import { UORC } from '../helpers/registry-fixtures.js';

let root: string;
let dispose: () => Promise<void>;
let ws: string;
let home: string;
beforeAll(async () => {
  ({ dir: root, dispose } = await makeTempDir('mam-cli-conventions-'));
  ws = join(root, 'ws');
  home = join(root, 'home');
  mkdirSync(ws);
  mkdirSync(home);
});
afterAll(async () => {
  await dispose();
});

interface Run {
  code: number | null;
  out: string;
  err: string;
}

// The caller's environment with HOME set to the test's (or removed) and no agent session variable.
function env(homeValue: string | null): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(e)) if (/SESSION_ID|CONVERSATION_ID|CODEX_THREAD_ID/.test(k)) delete e[k];
  if (homeValue === null) delete e['HOME'];
  else e['HOME'] = homeValue;
  return e;
}

function mam(args: string[], opts: { home?: string | null; stdout?: number } = {}): Run {
  const r = spawnSync(process.execPath, [MAM_BIN, ...args], { cwd: root, encoding: 'utf8', env: env(opts.home === undefined ? home : opts.home), stdio: ['ignore', opts.stdout ?? 'pipe', 'pipe'] });
  return { code: r.status, out: r.stdout ?? '', err: r.stderr };
}

const STACK = /\n\s+at |node:internal|Error: /;

describe('usage errors through the bin', () => {
  it.each([
    [['discover', 'vim', '--workspace', 'ws'], 'mam discover: unknown agent "vim": <agent> must be one of'],
    [['discover', 'claude', '--workspace', 'ws', '--epoch', 'abc'], 'mam discover: --epoch must be a non-negative number: "abc"'],
    [['discover', 'claude', '--workspace', 'missing'], 'mam discover: --workspace must be an existing directory: "missing"'],
    [['status', '--workspace', 'missing'], 'mam status: --workspace must be an existing directory: "missing"'],
    [['doctor', '--home', 'rel'], 'mam doctor: --home must be an absolute path to an existing directory: "rel"'],
    [['purge', 'claude', '', '--home', '/'], 'mam purge: <id> must not be empty'],
    [['reset'], 'mam reset: --workspace is required'],
  ])('mam %j: exit 2, the line on stderr, no stack; the same as JSON on stdout under --json', (argv, line) => {
    const r = mam(argv);
    expect(r.code, r.err).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.split('\n')[0]).toContain(line);
    expect(r.err).not.toMatch(STACK);
    const j = mam([...argv, '--json']);
    expect(j.code).toBe(2);
    expect(j.err).toBe('');
    expect(JSON.parse(j.out)).toMatchObject({ error: { code: 'USAGE', message: expect.stringContaining(line.replace(/^mam \w+: /, '')), data: { argument: expect.any(String) } } });
  });

  it('a relative --workspace is resolved against the current directory', () => {
    const r = mam(['discover', 'claude', '--workspace', 'ws', '--json']);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ kind: 'discovered', agent: 'claude', workspace: ws, ids: [] });
  });

  it('no --home and no HOME: exit 2 naming --home; a relative HOME: exit 2 naming HOME', () => {
    const none = mam(['doctor'], { home: null });
    expect(none.code).toBe(2);
    expect(none.err.split('\n')[0]).toBe('mam doctor: --home is required when HOME is not set');
    const rel = mam(['doctor', '--json'], { home: 'rel' });
    expect(rel.code).toBe(2);
    expect(JSON.parse(rel.out)).toEqual({ error: { code: 'USAGE', message: 'HOME must be an absolute path to an existing directory: "rel"', data: { argument: '--home', value: 'rel' } } });
  });

  it('mam <command> --help: the full help on stdout, exit 0', () => {
    const r = mam(['purge', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^mam purge — /);
    expect(r.out).toContain('exit codes:');
    expect(r.out).toContain('--dry-run');
    expect(r.err).toBe('');
  });
});

describe('--json: one compact document with a kind', () => {
  const one = (r: Run): Record<string, unknown> => {
    expect(r.out.endsWith('\n') && !r.out.trimEnd().includes('\n'), r.out).toBe(true);
    return JSON.parse(r.out) as Record<string, unknown>;
  };

  it('doctor, status, reconcile, reset, loop, purge', () => {
    expect(one(mam(['doctor', '--json']))).toMatchObject({ kind: 'stores', home, reports: expect.any(Array) });
    expect(one(mam(['status', '--workspace', ws, '--json']))).toEqual({ kind: 'status', workspace: ws, sessionsDetail: [], orchestratorUuids: [] });
    expect(one(mam(['reconcile', '--workspace', ws, '--json']))).toEqual({ kind: 'reconcile', workspace: ws, apply: false, entries: [] });
    expect(one(mam(['reset', '--workspace', ws, '--dry-run', '--json']))).toMatchObject({ kind: 'dry-run', exitCode: 0, rows: [] });
    const loop = mam(['loop', '--creator', 'x', '--task', 't', '--workspace', ws, '--json']);
    expect(loop.code).toBe(1);
    expect(one(loop)).toMatchObject({ kind: 'refused', reason: 'not-registered' });
    const purge = mam(['purge', 'auto', UORC, '--json']);
    expect(purge.code).toBe(5);
    expect(one(purge)).toEqual({ kind: 'unresolved', agent: null, purged: [], residual: [], inUse: false });
  });

  it('orc: registered, orchestrators, removed', () => {
    const orc = (...a: string[]): Record<string, unknown> => one(mam(['orc', ...a, '--workspace', ws, '--json']));
    expect(orc('--uuid', UORC)).toEqual({ kind: 'registered', id: UORC });
    expect(orc('--list')).toEqual({ kind: 'orchestrators', ids: [UORC] });
    expect(orc('--remove', UORC)).toEqual({ kind: 'removed', id: UORC, purge: null });
    const missing = mam(['orc', '--remove', UORC, '--workspace', ws, '--json']);
    expect(missing.code).toBe(1);
    expect(one(missing)).toMatchObject({ kind: 'not-registered', id: UORC });
  });

  it('policy: {"kind":"decisions"}', () => {
    const f = join(root, 'scenario.json');
    writeFileSync(f, '{}');
    expect(one(mam(['policy', f, '--json']))).toMatchObject({ kind: 'decisions', decisions: [{ file: f, scenarioId: 'scenario' }], failures: [] });
  });

  it('a library fault: {"error":{"code","message","data"}} on stdout, exit 1', () => {
    const broken = join(root, 'broken');
    mkdirSync(join(broken, '.mam'), { recursive: true });
    writeFileSync(join(broken, '.mam', 'agent-sessions.yaml'), 'herdr_sessions: {broken\n');
    const r = mam(['status', '--workspace', broken, '--json']);
    expect(r.code).toBe(1);
    expect(r.err).toBe('');
    expect(one(r)).toMatchObject({ error: { code: 'REGISTRY_CORRUPT', message: expect.any(String), data: expect.any(Object) } });
  });
});

describe('stdout that cannot be written', () => {
  it.skipIf(!existsSync('/dev/full'))('mam doctor > /dev/full: one line on stderr (ENOSPC), exit 1, no stack', () => {
    const full = openSync('/dev/full', 'w');
    try {
      for (const argv of [['doctor'], ['doctor', '--json'], ['discover', 'vim', '--json']]) {
        const r = mam(argv, { stdout: full });
        expect(r.code, argv.join(' ')).toBe(1);
        expect(r.err).toBe('mam: cannot write to standard output: ENOSPC (no space left on the device)\n');
      }
    } finally {
      closeSync(full);
    }
  });

  it('a pipe closed by its reader (mam doctor --json | head -c0): one line on stderr (EPIPE), exit 1, no stack', async () => {
    const child = spawn(process.execPath, [MAM_BIN, 'doctor', '--json'], { cwd: root, env: env(home), stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader goes away before the bin has started, so its one write meets a closed pipe.
    child.stdout.destroy();
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(err).toBe('mam: cannot write to standard output: EPIPE (the reader closed the pipe)\n');
    expect(code).toBe(1);
  });
});
