// Every README block marked `recipe=<file>` is that file, verbatim below its first comment line: a recipe the README
// shows is the test that runs, and neither can drift from the other.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readmeBlocks } from '../helpers/readme-blocks.js';

const ROOT = new URL('../../', import.meta.url);
const recipes = readmeBlocks(readFileSync(new URL('README.md', ROOT), 'utf8'))
  .map((b) => ({ block: b, file: b.flags.find((f) => f.startsWith('recipe='))?.slice('recipe='.length) }))
  .filter((r): r is { block: typeof r.block; file: string } => r.file !== undefined);

describe('README recipes', () => {
  it('the test kit recipe is in the README', () => {
    expect(recipes.map((r) => r.file)).toContain('test/docs/recipe-fake-holder.test.ts');
  });

  it.each(recipes.map((r) => [r.file, r.block] as const))('%s is the README block, verbatim', (file, block) => {
    const text = readFileSync(new URL(file, ROOT), 'utf8');
    const [first, ...body] = text.trimEnd().split('\n');
    expect(first, `${file} opens with one comment line`).toMatch(/^\/\/ /);
    expect(body.join('\n'), `README.md:${block.line}`).toBe(block.code);
  });
});
