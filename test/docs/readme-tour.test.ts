// Runs every ```ts block of README.md as written (a fresh sandbox of real Codex files each) and checks each of its
// `// → …` result comments; a failure names the README line.
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isNoRun, readmeBlocks } from '../helpers/readme-blocks.js';
import { runReadmeBlock } from '../helpers/readme-run.js';
import { tourSandbox } from '../helpers/readme-sandbox.js';
import { typecheckReadmeBlocks } from '../helpers/readme-typecheck.js';

const README = new URL('../../README.md', import.meta.url);
const blocks = readmeBlocks(readFileSync(README, 'utf8'));
const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-readme-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('README.md ts blocks', () => {
  it('has a tour of at least ten blocks, none of them (and at most two blocks anywhere) marked no-run', () => {
    const tour = blocks.filter((b) => b.section === 'A short tour');
    expect(tour.length).toBeGreaterThanOrEqual(10);
    expect(tour.filter(isNoRun)).toEqual([]);
    expect(blocks.filter(isNoRun).length).toBeLessThanOrEqual(2);
  });

  it('every block type-checks as a user of @mam/core would compile it (strict, the project options)', () => {
    expect(typecheckReadmeBlocks(blocks.filter((b) => !isNoRun(b)))).toEqual([]);
  });

  for (const block of blocks.filter((b) => !isNoRun(b))) {
    it(`README.md:${block.line} (${block.section}) runs and gives what its comments say`, async () => {
      const base = join(root, `block-${block.line}`);
      const checked = await runReadmeBlock(block, tourSandbox(base), root);
      if (block.section === 'A short tour') expect(checked, `README.md:${block.line}: a block of the tour shows no result`).toBeGreaterThan(0);
    });
  }
});
