// Issue 31: a repeated single-valued option silently won (`--workspace A … --workspace B` ran with B), so arguments a
// wrapper appends could replace the scope it set. Now it is a usage error naming the flag (exit 2), before anything runs.
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../../src/cli/commands/parse-options.js';
import { main } from '../../../src/cli/mam.js';

function collect() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) }, out: () => out.join(''), err: () => err.join('') };
}

// Each command with the arguments it needs to get past its own checks, and its single-valued options.
const COMMANDS: ReadonlyArray<readonly [string, readonly string[], readonly string[]]> = [
  ['discover', ['claude'], ['workspace', 'home', 'epoch']],
  ['doctor', [], ['home']],
  ['loop', ['--creator', 'c', '--task', 't'], ['workspace', 'home', 'wait-ms', 'quiescence-ms', 'timeout-s']],
  ['loop', ['--task', 't'], ['creator']],
  ['orc', ['--list'], ['workspace', 'home']],
  ['orc', [], ['uuid', 'remove']],
  ['purge', ['claude', 'e7800005-0000-4000-8000-000000000005'], ['home', 'workspace']],
  ['reconcile', [], ['workspace', 'home']],
  ['reset', [], ['workspace']],
  ['status', [], ['workspace', 'home']],
];

const CASES = COMMANDS.flatMap(([cmd, base, options]) => options.map((o) => [cmd, base, o] as const));

describe('a repeated single-valued option is a usage error', () => {
  it.each(CASES)('mam %s … --%s twice: exit 2, stderr names the flag, nothing on stdout', async (cmd, base, option) => {
    const c = collect();
    // Two different absolute directories that do not exist: had the command run, it would have said so otherwise.
    const a = option === 'epoch' || option.endsWith('-ms') || option.endsWith('-s') ? '1' : '/nonexistent-mam-a';
    const b = option === 'epoch' || option.endsWith('-ms') || option.endsWith('-s') ? '2' : '/nonexistent-mam-b';
    expect(await main([cmd, ...base, `--${option}`, a, `--${option}=${b}`], c.io)).toBe(2);
    expect(c.err()).toContain(`'--${option}' given more than once`);
    expect(c.out()).toBe('');
  });

  it('the same option once, and a repeated boolean, are fine', () => {
    const options = { workspace: { type: 'string' }, json: { type: 'boolean' }, tag: { type: 'string', multiple: true } } as const;
    const once = parseOptions({ args: ['--workspace', '/a', '--json', '--json', '--tag', 'x', '--tag', 'y'], options });
    expect(once.values).toEqual({ workspace: '/a', json: true, tag: ['x', 'y'] });
    expect(() => parseOptions({ args: ['--workspace', '/a', '--workspace', '/a'], options })).toThrow("option '--workspace' given more than once");
  });

  it('a value after -- is a positional, never a repeat', () => {
    const parsed = parseOptions({ args: ['--workspace', '/a', '--', '--workspace', '/b'], options: { workspace: { type: 'string' } }, allowPositionals: true });
    expect(parsed.values.workspace).toBe('/a');
    expect(parsed.positionals).toEqual(['--workspace', '/b']);
  });
});
