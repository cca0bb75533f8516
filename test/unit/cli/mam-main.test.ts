import { readdirSync, readFileSync } from 'node:fs';
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

  // The root entry is the curated public API; the bin imports what it runs from the modules themselves.
  it('an unknown command under --json: the JSON error on stdout, exit 2', async () => {
    const c = collect();
    expect(await main(['frobnicate', '--json'], c.io)).toBe(2);
    expect(c.err()).toBe('');
    expect(JSON.parse(c.out())).toEqual({ error: { code: 'USAGE', message: 'unknown command "frobnicate"', data: { argument: '<command>', value: 'frobnicate' } } });
  });

  it('every command module imports library modules by relative path, never the root entry', () => {
    const dir = new URL('../../../src/cli/commands/', import.meta.url);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      const specs = [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      // Node built-ins, the commands' own helpers beside them, and library modules below src/ (never src/index.ts).
      for (const s of specs) expect(s?.startsWith('node:') || /^\.\/[a-z0-9-]+\.js$/.test(s ?? '') || (/^\.\.\/\.\.\/[a-z0-9/-]+\.js$/.test(s ?? '') && s !== '../../index.js'), `${file}: ${s}`).toBe(true);
    }
  });
});
