import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/cli/commands.js';
import { main, packageVersion } from '../../../src/cli/mam.js';

function collect() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) }, out: () => out.join(''), err: () => err.join('') };
}

describe('mam: a good Unix CLI', () => {
  it('no command: usage on stderr, exit 2, nothing on stdout', async () => {
    const c = collect();
    expect(await main([], c.io)).toBe(2);
    expect(c.out()).toBe('');
    expect(c.err()).toContain('usage: mam <command>');
  });

  it.each([['--help'], ['-h'], ['help']])('%s: help on stdout listing every command, exit 0', async (flag) => {
    const c = collect();
    expect(await main([flag], c.io)).toBe(0);
    expect(c.err()).toBe('');
    for (const name of Object.keys(COMMANDS)) expect(c.out()).toContain(`mam ${name} `);
  });

  it.each(Object.keys(COMMANDS))('mam %s --help: its synopsis on stdout, exit 0, the command does not run', async (name) => {
    const c = collect();
    expect(await main([name, '--help'], c.io)).toBe(0);
    expect(c.out()).toMatch(new RegExp(`^mam ${name} `));
    expect(c.err()).toBe('');
  });

  it('--version / -V: the package.json version on stdout, exit 0', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(packageVersion()).toBe(pkg.version);
    for (const flag of ['--version', '-V']) {
      const c = collect();
      expect(await main([flag], c.io)).toBe(0);
      expect(c.out()).toBe(`${pkg.version}\n`);
    }
  });

  it('an unknown command or option: the error and usage on stderr, exit 2', async () => {
    for (const bad of ['nope', '--bogus', 'constructor', '__proto__']) {
      const c = collect();
      expect(await main([bad], c.io)).toBe(2);
      expect(c.out()).toBe('');
      expect(c.err()).toContain('usage: mam');
    }
  });

  it('every command module imports only the package entry (the built bin maps it to @mam/core)', () => {
    for (const name of Object.keys(COMMANDS)) {
      const text = readFileSync(new URL(`../../../src/cli/commands/${name}.ts`, import.meta.url), 'utf8');
      const specs = [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      for (const s of specs) expect(s === '../../index.js' || s?.startsWith('node:'), `${name}: ${s}`).toBe(true);
    }
  });
});
