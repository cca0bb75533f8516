// The README runner itself: it must fail — with the README line — on a wrong result comment, a throwing block, a
// statement that never ran, a foreign import, a comment it cannot check, and a type error.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isNoRun, readmeBlocks, type ReadmeBlock } from '../helpers/readme-blocks.js';
import { matchesComment, rewriteBlock } from '../helpers/readme-checks.js';
import { runReadmeBlock, type TourVars } from '../helpers/readme-run.js';
import { typecheckReadmeBlocks } from '../helpers/readme-typecheck.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-readme-harness-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const vars = (): TourVars => {
  const dir = mkdtempSync(join(root, 'v-'));
  mkdirSync(join(dir, 'home'));
  return { home: join(dir, 'home'), env: { HOME: join(dir, 'home') }, workspace: dir, dir };
};

// One block of a Markdown text, its fence on line `fenceLine`.
function block(code: string, fenceLine = 10): ReadmeBlock {
  const md = `${'\n'.repeat(fenceLine - 1)}\`\`\`ts\n${code}\n\`\`\`\n`;
  const [b] = readmeBlocks(md);
  if (b === undefined) throw new Error('no block');
  return b;
}

describe('readmeBlocks', () => {
  it('gives each ts block with the README line of its first code line, its section and its flags', () => {
    const md = ['# t', '## One', '```ts', 'a;', '```', '```sh', 'ls', '```', '## Two', '```ts no-run', 'b;', 'c;', '```'].join('\n');
    expect(readmeBlocks(md)).toEqual([
      { line: 4, section: 'One', flags: [], code: 'a;' },
      { line: 11, section: 'Two', flags: ['no-run'], code: 'b;\nc;' },
    ]);
    expect(readmeBlocks(md).map(isNoRun)).toEqual([false, true]);
  });

  it('refuses an unclosed fence, naming its line', () => {
    expect(() => readmeBlocks('x\n```ts\na;\n')).toThrow(/README\.md:2:/);
  });
});

describe('result comments', () => {
  it('match as util.inspect shows the value, whitespace free, … for anything', () => {
    expect(matchesComment(['a', 'b'], "['a', 'b']")).toBe(true);
    expect(matchesComment(['a', 'b'], "[ 'a',\n 'b' ]")).toBe(true);
    expect(matchesComment({ kind: 'purged', purged: ['/x/y.jsonl'] }, "{ kind: 'purged', purged: ['…/y.jsonl'] }")).toBe(true);
    expect(matchesComment({ kind: 'in-use' }, "{ kind: 'purged' }")).toBe(false);
    expect(matchesComment(['a', 'b'], "['a']")).toBe(false);
    expect(matchesComment('ab', "'a b'")).toBe(false);
    expect(matchesComment(null, 'null')).toBe(true);
  });

  it('are checked after a const, around an expression statement, over continuation lines, without the remark', () => {
    const r = rewriteBlock(block("const x = 1 + 1; // → 2 — a remark\nx * 2;      // → { a: 1,\n//   b: 2 }\n// a plain comment", 5));
    expect(r.checks).toEqual([{ line: 6, expected: '2' }, { line: 7, expected: '{ a: 1, b: 2 }' }]);
    expect(r.code.split('\n')).toEqual(['const x = 1 + 1; __check(6, x);', '__check(7, (x * 2));', '//   b: 2 }', '// a plain comment']);
  });

  it('cannot trail a statement they cannot check', () => {
    expect(() => rewriteBlock(block('if (a) b(); // → 1', 7))).toThrow(/README\.md:8:/);
    expect(() => rewriteBlock(block('const { a } = o; // → 1', 7))).toThrow(/README\.md:8:/);
    expect(() => rewriteBlock(block('// → 1', 7))).toThrow(/README\.md:8:/);
    expect(() => rewriteBlock(block('a; // →', 7))).toThrow(/README\.md:8: a result comment with no value/);
  });
});

describe('runReadmeBlock', () => {
  it('runs a block with the tour variables and @mam/core, and counts its checks', async () => {
    const b = block("import { normalizeAgentId } from '@mam/core';\ntypeof home; // → 'string'\nnormalizeAgentId('claude', 'memory'); // → null");
    await expect(runReadmeBlock(b, vars(), root)).resolves.toBe(2);
  });

  it('fails on a wrong result comment, naming its README line', async () => {
    const b = block("import { normalizeAgentId } from '@mam/core';\n\nnormalizeAgentId('claude', 'memory'); // → 'memory'", 20);
    await expect(runReadmeBlock(b, vars(), root)).rejects.toThrow(/^README\.md:23: the comment says/);
  });

  it('fails on a block that throws, naming the line that threw', async () => {
    const b = block("const a = 1; // → 1\n\nthrow new Error('boom');", 30);
    await expect(runReadmeBlock(b, vars(), root)).rejects.toThrow(/^README\.md:33: the block threw: boom/);
  });

  it('fails when a statement with a result comment never ran', async () => {
    const b = block("if (typeof home === 'number') {\n  home; // → 1\n}", 40);
    await expect(runReadmeBlock(b, vars(), root)).rejects.toThrow(/^README\.md:42: .*never ran/);
  });

  it('fails on an import other than @mam/core and @mam/core/testing', async () => {
    const b = block("import { join } from 'node:path';\njoin('a'); // → 'a'", 50);
    await expect(runReadmeBlock(b, vars(), root)).rejects.toThrow(/^README\.md:51: imports "node:path"/);
  });
});

describe('typecheckReadmeBlocks', () => {
  it('names the README line of a type error, and passes a correct block', () => {
    const bad = block("const n: number = home;\n\nconst s: string = env['HOME'];", 60);
    const errors = typecheckReadmeBlocks([bad, block('const ok: string = workspace + dir;', 70)]);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^README\.md:61: TS2322 /);
    expect(errors[1]).toMatch(/^README\.md:63: TS2322 /);
  });
});
