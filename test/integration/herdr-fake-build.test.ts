import { execa } from 'execa';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { herdrTempDir } from '../helpers/herdr-temp.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

// What a user of the published package runs: install from the build, seed, call the executable, use the in-process fake.
const scenario = `async function scenario(m, cp, dir) {
  const statePath = dir + '/state.json';
  const path = await m.installFakeHerdr(dir + '/bin', { statePath });
  await m.updateFakeHerdrState(statePath, (e) => e.addAgent({ name: 'rev', kind: 'claude', status: 'working' }));
  const list = JSON.parse(cp.execFileSync(path, ['agent', 'list'], { encoding: 'utf8' }));
  let waitExit = 0;
  try { cp.execFileSync(path, ['agent', 'wait', 'rev', '--until', 'idle', '--timeout', '50'], { stdio: 'pipe' }); } catch (err) { waitExit = err.status; }
  const fake = new m.FakeHerdr();
  fake.addAgent({ name: 'rev', kind: 'claude' });
  return { names: list.result.agents.map((a) => a.name), waitExit, inProcess: await fake.agentPresence('rev') };
}`;

describe('the fake herdr from the tsup build', () => {
  let dir: string;
  let remove: () => Promise<void>;

  beforeAll(async () => {
    ({ dir, remove } = await herdrTempDir('build'));
    await execa(join(root, 'node_modules/.bin/tsup'), [
      'src/testing/herdr/index.ts', '--format', 'esm', '--out-dir', join(dir, 'dist'), '--target', 'node20', '--platform', 'node', '--no-config', '--silent',
    ], { cwd: root });
    // As in an install: the package's runtime dependencies (zod, which the herdr answer parsers use) are resolvable.
    await symlink(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  }, 60_000);
  afterAll(async () => {
    await remove();
  });

  // The package is ESM only: a CommonJS user `require`s the ESM build (require(esm), Node >= 20.19).
  it('works when required as CommonJS', async () => {
    const work = join(dir, 'cjs');
    await mkdir(work);
    const code = `${scenario}\nscenario(require(${JSON.stringify(join(dir, 'dist/index.js'))}), require('node:child_process'), process.argv[1])
      .then((r) => process.stdout.write(JSON.stringify(r)), (e) => { console.error(e); process.exitCode = 1; });`;
    const r = await execa('node', ['-e', code, work], { reject: false });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ names: ['rev'], waitExit: 1, inProcess: 'present' });
  });

  it('works when imported as ESM', async () => {
    const work = join(dir, 'esm');
    await mkdir(work);
    const code = `import * as m from ${JSON.stringify(join(dir, 'dist/index.js'))};\nimport * as cp from 'node:child_process';\n${scenario}\n` +
      'process.stdout.write(JSON.stringify(await scenario(m, cp, process.argv[1])));';
    const r = await execa('node', ['--input-type=module', '-e', code, work], { reject: false });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ names: ['rev'], waitExit: 1, inProcess: 'present' });
  });
});
