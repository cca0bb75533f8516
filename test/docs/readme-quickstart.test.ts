// The README's quick start runs as written (from the sources here; scripts/check-package.mjs runs the same block from the
// packed tarball, saved and run as the README says) and prints a non-empty result: two conversations found, one purged.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { quickStartOutputProblem, readmeQuickStart } from '../../scripts/readme-quickstart.mjs';
import { isNoRun, readmeBlocks } from '../helpers/readme-blocks.js';

const ROOT = new URL('../../', import.meta.url);
const README = readFileSync(new URL('README.md', ROOT), 'utf8');
const SOURCES: Record<string, string> = {
  '@mam/core': new URL('src/index.ts', ROOT).pathname,
  '@mam/core/testing': new URL('src/testing/index.ts', ROOT).pathname,
};
const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-quickstart-test-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Imports the block as a module (the package's two entries pointing at the sources), its temp dir under `tmp`; its output.
async function runQuickStart(code: string, tmp: string): Promise<string> {
  const file = join(root, `quickstart-${Date.now()}.mts`);
  writeFileSync(file, code.replace(/(from\s*)(['"])(@mam\/core(?:\/testing)?)\2/g, (_all, head: string, q: string, spec: string) => `${head}${q}${SOURCES[spec]}${q}`));
  const out: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void out.push(format(...args)));
  vi.stubEnv('TMPDIR', tmp);
  try {
    await import(/* @vite-ignore */ file);
  } finally {
    log.mockRestore();
    vi.unstubAllEnvs();
  }
  return `${out.join('\n')}\n`;
}

describe('README quick start', () => {
  const quick = readmeQuickStart(README);

  it('is saved as the .mts file its text names and run with that file; the block is the first ts block of its section', () => {
    expect(quick).toMatchObject({ file: 'quickstart.mts', command: 'npx tsx quickstart.mts' });
    const first = readmeBlocks(README).find((b) => b.section === 'Quick start');
    expect(first?.code).toBe(quick.code.replace(/\n$/, ''));
    // Not run by the tour (it imports node: modules for its temp dir): this file and the package check run it.
    expect(first !== undefined && isNoRun(first)).toBe(true);
  });

  it('prints two conversations found, one verified and purged, the other left; its sandbox is gone afterwards', async () => {
    const tmp = join(root, 'tmp');
    mkdirSync(tmp);
    const stdout = await runQuickStart(quick.code, tmp);
    expect(quickStartOutputProblem(stdout), stdout).toBeNull();
    expect(stdout).toMatch(/^ {2}removed \/.*rollout-.*\.jsonl$/m);
    expect(readdirSync(tmp), 'what the quick start left in its temp dir').toEqual([]);
  });

  it('the output check refuses an empty or partial result', () => {
    expect(quickStartOutputProblem('')).toMatch(/two "discover:" lines/);
    expect(quickStartOutputProblem('discover:\nverifyArtifact: true\npurge: purged\n  removed /x\ndiscover:\n')).toMatch(/found 0/);
    const ok = 'discover: b a\nverifyArtifact: true\npurge: purged\n  removed /x\ndiscover: b\n';
    expect(quickStartOutputProblem(ok)).toBeNull();
    expect(quickStartOutputProblem(ok.replace('purge: purged', 'purge: in-use'))).toMatch(/purge: purged/);
    expect(quickStartOutputProblem(ok.replace('  removed /x\n', ''))).toMatch(/nothing removed/);
    expect(quickStartOutputProblem(ok.replace(/discover: b\n$/, 'discover: a\n'))).toMatch(/not the newer/);
  });
});
