// Issue 34: every usage error of every command exits 2 with one line naming the flag or argument and what is wrong (then
// the usage line), nothing on stdout, no stack and no library parameter name; under --json the same error is one JSON
// document on stdout, {"error":{"code":"USAGE","message","data":{"argument"}}}, and nothing on stderr.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SPECS } from '../../../src/cli/commands/specs.js';
import { main } from '../../../src/cli/mam.js';

const root = mkdtempSync(join(tmpdir(), 'mam-cli-usage-'));
const ws = join(root, 'ws');
const home = join(root, 'home');
const file = join(root, 'file');
mkdirSync(ws);
mkdirSync(home);
writeFileSync(file, 'x');
afterAll(() => rmSync(root, { recursive: true, force: true }));

function collect() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) }, out: () => out.join(''), err: () => err.join('') };
}

const ID = 'e7800005-0000-4000-8000-000000000005';
const W = ['--workspace', ws];
const H = ['--home', home];

// [argv, the argument named in data.argument, what the line says]
const CASES: ReadonlyArray<readonly [readonly string[], string, string]> = [
  [['discover', ...W], '<agent>', 'missing <agent>'],
  [['discover', 'vim', ...W], '<agent>', 'unknown agent "vim": <agent> must be one of claude, agy, codex, grok, hermes, opencode'],
  [['discover', 'claude', 'extra', ...W], 'extra', 'unexpected argument: "extra"'],
  [['discover', 'claude', ...H], '--workspace', '--workspace is required'],
  [['discover', 'claude', '--workspace', 'no-such-dir', ...H], '--workspace', '--workspace must be an existing directory: "no-such-dir"'],
  [['discover', 'claude', '--workspace', file, ...H], '--workspace', '--workspace must be an existing directory'],
  [['discover', 'claude', '--workspace', '', ...H], '--workspace', '--workspace must not be empty'],
  [['discover', 'claude', ...W, '--epoch', 'abc'], '--epoch', '--epoch must be a non-negative number: "abc"'],
  [['discover', 'claude', ...W, '--home', 'rel'], '--home', '--home must be an absolute path to an existing directory: "rel"'],
  [['discover', 'claude', ...W, '--home', join(root, 'none')], '--home', '--home must be an absolute path to an existing directory'],
  [['doctor', '--home', file], '--home', '--home must be an absolute path to an existing directory'],
  [['doctor', '--home', ''], '--home', '--home must not be empty'],
  [['doctor', '--home'], '--home', '--home needs a value'],
  [['doctor', '--bogus'], '--bogus', 'unknown option: --bogus'],
  [['doctor', 'extra'], 'extra', 'unexpected argument: "extra"'],
  [['doctor', '--home', '/a', '--home', '/b'], '--home', "option '--home' given more than once"],
  [['loop', '--task', 't', ...W], '--creator', '--creator is required'],
  [['loop', '--creator', '', '--task', 't', ...W], '--creator', '--creator must not be empty'],
  [['loop', '--creator', 'c', ...W], '--task', '--task is required'],
  [['loop', '--creator', 'c', '--task', ' ', ...W], '--task', '--task must not be empty'],
  [['loop', '--creator', 'c', '--task', 't', '--wait-ms', 'soon', ...W], '--wait-ms', '--wait-ms must be a non-negative number: "soon"'],
  [['loop', '--creator', 'c', '--task', 't', '--timeout-s=-1', ...W], '--timeout-s', '--timeout-s must be a non-negative number: "-1"'],
  [['loop', '--creator', 'c', '--task', 't', '--timeout-s', '-1', ...W], '--timeout-s', '--timeout-s needs a value'],
  [['loop', '--creator', 'c', '--task', 't', '--workspace', 'no-such-dir'], '--workspace', '--workspace must be an existing directory'],
  [['orc', ...W], '--uuid', 'give exactly one of --uuid, --list, --remove'],
  [['orc', '--uuid', ID, '--list', ...W], '--uuid', 'give exactly one of --uuid, --list, --remove'],
  [['orc', '--uuid', ID, '--purge-conversation', ...W], '--purge-conversation', '--purge-conversation needs --remove'],
  [['orc', '--list', '--yes', ...W], '--yes', '--yes and --dry-run go with --remove'],
  [['orc', '--uuid', 'not-an-id', ...W, ...H], '--uuid', '--uuid: '],
  [['orc', '--remove', '../../x', ...W, ...H], '--remove', '--remove: '],
  [['orc', '--list', '--workspace', 'no-such-dir'], '--workspace', '--workspace must be an existing directory'],
  [['orc', '--list', ...W, '--home', 'rel'], '--home', '--home must be an absolute path'],
  [['policy'], 'FILE.json', 'missing FILE.json'],
  [['policy', '--yaml', file], '--yaml', 'unknown option: --yaml'],
  [['purge', ...H], '<agent|auto>', 'missing <agent|auto>'],
  [['purge', 'qwen', ID, ...H], '<agent|auto>', 'unknown agent "qwen": <agent|auto> must be one of claude, agy, codex, grok, hermes, opencode, gemini, auto'],
  [['purge', 'auto', ...H], '<id>', 'missing <id>'],
  [['purge', 'auto', '', ...H], '<id>', '<id> must not be empty'],
  [['purge', 'auto', ID, 'extra', ...H], 'extra', 'unexpected argument: "extra"'],
  [['purge', 'auto', ID, '--home', 'rel'], '--home', '--home must be an absolute path to an existing directory: "rel"'],
  [['purge', 'auto', ID, ...H, '--workspace', 'no-such-dir'], '--workspace', '--workspace must be an existing directory'],
  [['reconcile', '--workspace', 'no-such-dir'], '--workspace', '--workspace must be an existing directory'],
  [['reconcile', ...W, '--home', 'rel'], '--home', '--home must be an absolute path'],
  [['reset'], '--workspace', '--workspace is required'],
  [['reset', '--workspace', 'no-such-dir'], '--workspace', '--workspace must be an existing directory'],
  [['status', ...H], '--workspace', '--workspace is required'],
  [['status', '--workspace', join(ws, 'nowhere'), ...H], '--workspace', '--workspace must be an existing directory'],
  [['status', ...W, '--home', file], '--home', '--home must be an absolute path to an existing directory'],
];

describe('every usage error: exit 2, one line naming the argument, then the usage line', () => {
  it.each(CASES)('mam %j', async (argv, argument, says) => {
    const [cmd] = argv;
    const c = collect();
    expect(await main([...argv], c.io)).toBe(2);
    expect(c.out()).toBe('');
    const [line, usage] = c.err().split('\n');
    expect(line?.startsWith(`mam ${cmd}: `), c.err()).toBe(true);
    expect(line).toContain(says);
    expect(line).toContain(argument);
    expect(usage).toBe(`usage: ${SPECS[cmd as keyof typeof SPECS].usage}`);
    expect(c.err()).not.toMatch(/\n\s+at |opts\.|ctx\.|options\./);
  });

  it.each(CASES)('mam %j --json: {"error":{"code":"USAGE",…}} on stdout, nothing on stderr', async (argv, argument, says) => {
    const [cmd, ...rest] = argv;
    const c = collect();
    expect(await main([cmd as string, '--json', ...rest], c.io)).toBe(2);
    expect(c.err()).toBe('');
    expect(c.out().endsWith('\n') && c.out().trimEnd().split('\n').length === 1, c.out()).toBe(true);
    const doc = JSON.parse(c.out()) as { error: { code: string; message: string; data: { argument: string } } };
    expect(doc.error.code).toBe('USAGE');
    expect(doc.error.message).toContain(says);
    expect(doc.error.data.argument).toBe(argument);
  });

  it('mam help <unknown>: exit 2; mam help <command> is mam <command> --help', async () => {
    const bad = collect();
    expect(await main(['help', 'nope'], bad.io)).toBe(2);
    expect(bad.err()).toContain('mam help: unknown command "nope"');
    for (const name of Object.keys(SPECS)) {
      const a = collect();
      const b = collect();
      expect(await main(['help', name], a.io)).toBe(0);
      expect(await main([name, '--help'], b.io)).toBe(0);
      expect(a.out()).toBe(b.out());
    }
  });

  it.each(Object.entries(SPECS))('mam %s --help documents every option, the --json document and every exit code', async (name, spec) => {
    const c = collect();
    expect(await main([name, '--help'], c.io)).toBe(0);
    const text = c.out();
    expect(text).toContain(`usage: ${spec.usage}`);
    for (const flag of Object.keys(spec.options)) expect(text).toMatch(new RegExp(`\\n  --${flag}\\b.* {2}\\S`));
    expect(text).toContain(`--json: ${spec.json}`);
    for (const [code] of spec.exits) expect(text).toMatch(new RegExp(`\\n  ${code} +\\S`));
    expect(text).toMatch(/\n {2}2 +usage error/);
  });
});
