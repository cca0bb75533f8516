// Runs one README block as an ES module: `@mam/core` and `@mam/core/testing` resolve to the sources, the tour's
// variables are in scope, and every result comment is checked against what its statement gave.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReadmeBlock } from './readme-blocks.js';
import { matchesComment, rewriteBlock, shown } from './readme-checks.js';

/** The variables every tour block may use (one sentence of the README names them). */
export interface TourVars {
  home: string;
  env: Record<string, string>;
  workspace: string;
  dir: string;
}

export const TOUR_VARS = ['home', 'env', 'workspace', 'dir'] as const satisfies readonly (keyof TourVars)[];

interface TourGlobal {
  vars: TourVars;
  check(line: number, value: unknown): void;
}

const ENTRY: Record<string, string> = {
  '@mam/core': fileURLToPath(new URL('../../src/index.ts', import.meta.url)),
  '@mam/core/testing': fileURLToPath(new URL('../../src/testing/index.ts', import.meta.url)),
};

let runs = 0;

const SPECIFIER = /(\bfrom\s*|\bimport\s*\(?\s*)(['"])([^'"]+)\2/g;

/** The block with its imports pointing at the sources; any other import throws with its README line. */
export function resolveImports(block: ReadmeBlock, code: string, entry: Record<string, string> = ENTRY): string {
  return code
    .split('\n')
    .map((text, i) =>
      text.replace(SPECIFIER, (_all, head: string, quote: string, spec: string) => {
        const to = entry[spec];
        if (to === undefined) throw new Error(`README.md:${block.line + i}: imports ${JSON.stringify(spec)}; a README block imports only @mam/core and @mam/core/testing`);
        return `${head}${quote}${to}${quote}`;
      }),
    )
    .join('\n');
}

// Where a module line of the block is in the README, from an error's stack.
function failingLine(err: unknown, file: string, block: ReadmeBlock): number {
  const stack = err instanceof Error ? (err.stack ?? '') : '';
  const m = new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+)`).exec(stack);
  return m === null ? block.line : block.line + Number(m[1]) - 1;
}

/**
 * Runs `block` with `vars` in scope (a module written under `tmp`); resolves to the number of result comments checked,
 * and rejects with `README.md:<line>: …` when the block throws, a statement with a result comment never ran, or gave
 * something else than its comment says.
 */
export async function runReadmeBlock(block: ReadmeBlock, vars: TourVars, tmp: string): Promise<number> {
  const { code, checks } = rewriteBlock(block);
  const seen = new Map<number, unknown[]>();
  const state: TourGlobal = { vars, check: (line, value) => void seen.set(line, [...(seen.get(line) ?? []), value]) };
  // On the block's first line, so module line N is README line block.line + N - 1.
  const prelude = `const { ${TOUR_VARS.join(', ')} } = globalThis.__readmeTour.vars; const __check = globalThis.__readmeTour.check; `;
  // A new name per run: a module already imported would not run again.
  const file = join(tmp, `readme-block-${block.line}-${++runs}.ts`);
  await writeFile(file, `${prelude}${resolveImports(block, code)}\n`);
  const g = globalThis as { __readmeTour?: TourGlobal };
  g.__readmeTour = state;
  try {
    await import(/* @vite-ignore */ file);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw new Error(`README.md:${failingLine(err, file, block)}: the block threw: ${msg}`, { cause: err });
  } finally {
    delete g.__readmeTour;
  }
  for (const c of checks) {
    const values = seen.get(c.line);
    if (values === undefined) throw new Error(`README.md:${c.line}: the statement of this result comment never ran`);
    for (const v of values) {
      if (!matchesComment(v, c.expected)) throw new Error(`README.md:${c.line}: the comment says\n  ${c.expected}\nbut the statement gave\n  ${shown(v)}`);
    }
  }
  return checks.length;
}
