// Node's arguments to run a TypeScript child script of the tests. The script is bundled (esbuild, packages left to
// node_modules) into node_modules/.cache/mam-test-children/ once per content: a plain `node` start costs ~0.4 s on this
// machine kind where `node --import tsx` costs ~1.5 s, and the tests start such children by the hundred. A bundle
// whose code reads `import.meta` for anything but `createRequire(import.meta.url)` (a package resolved from
// node_modules, which the cache dir shares) would resolve paths from the cache instead of its source: such a script
// runs through tsx as before.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

/** The tsx loader as a URL (node's `--import` takes one). */
export const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

const CACHE = fileURLToPath(new URL('../../node_modules/.cache/mam-test-children/', import.meta.url));
const SAFE_META = /createRequire\d*\(import\.meta\.url\)/g;
const known = new Map<string, readonly string[]>();

/** Node's arguments (before the script's own) that run the TypeScript file `file`. */
export function tsChildArgs(file: string): string[] {
  let args = known.get(file);
  if (args === undefined) {
    args = bundled(file) ?? ['--import', TSX_LOADER, file];
    known.set(file, args);
  }
  return [...args];
}

function bundled(file: string): readonly string[] | null {
  const result = buildSync({ entryPoints: [file], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', write: false, logLevel: 'silent' });
  const text = result.outputFiles[0]?.text;
  if (text === undefined || text.replace(SAFE_META, '').includes('import.meta')) return null;
  const out = join(CACHE, `${basename(file, '.ts')}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(out)) {
    mkdirSync(CACHE, { recursive: true });
    const tmp = `${out}.${process.pid}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, out);
  }
  return [out];
}
