// After tsup: the chunks the root entry loads when imported, merged into one. esbuild's splitting cuts the modules the
// root imports into many chunks (one per set of entry points that reach them), and Node's ES module loader pays per file
// far more than per byte: 70 small chunks cost a cold `import('@mam/core')` about three times what one file of the same
// code does. This pass re-chunks dist/ with rollup, each dist file a module: the chunks the root reaches by static imports
// become one chunk, every other chunk stays as esbuild cut it (the subpaths, the bin and the lazily loaded parts), so
// there is still one copy of every module. Source maps are chained back to src/.
// Usage: node scripts/merge-root-chunks.mjs [distDir]  (tsup.config.ts runs it after each build).
import { existsSync, readdirSync, readFileSync, rmSync, chmodSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rollup } from 'rollup';

const STATIC_IMPORT = /^(?:import|export)\s[^;]*?from\s*"(\.\.?\/[^"]+)";|^import\s*"(\.\.?\/[^"]+)";/gm;

// The dist files `file` imports statically (relative specifiers), resolved.
function staticImports(file) {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(STATIC_IMPORT)].map((m) => resolve(dirname(file), m[1] ?? m[2]));
}

function closure(start) {
  const seen = new Set();
  const todo = [start];
  while (todo.length > 0) {
    const f = todo.pop();
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...staticImports(f));
  }
  return seen;
}

// The entry points of the build: every .js file of dist that is not a chunk.
function entriesOf(dist) {
  const out = {};
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.js') && !e.name.startsWith('chunk-')) out[relative(dist, p).slice(0, -3)] = p;
    }
  };
  walk(dist);
  return out;
}

/** Merges the chunks `dist/index.js` loads at import into one chunk; returns how many chunks it had and has. */
export async function mergeRootChunks(distDir) {
  const dist = resolve(distDir);
  const root = join(dist, 'index.js');
  const rootChunks = [...closure(root)].filter((f) => f !== root);
  const entries = entriesOf(dist);
  const bins = Object.values(entries).filter((f) => readFileSync(f, 'utf8').startsWith('#!'));
  const bundle = await rollup({
    input: entries,
    external: (id) => !id.startsWith('.') && !id.startsWith('/'),
    preserveEntrySignatures: 'strict',
    // The chunks are esbuild's output: nothing to shake off, and a module without exports is kept for its order.
    treeshake: false,
    plugins: [
      {
        name: 'dist-with-maps',
        load(id) {
          const code = readFileSync(id, 'utf8').replace(/^#!.*\n/, '');
          const map = existsSync(`${id}.map`) ? JSON.parse(readFileSync(`${id}.map`, 'utf8')) : null;
          return { code, map };
        },
      },
    ],
    onwarn(warning, warn) {
      if (warning.code === 'CIRCULAR_DEPENDENCY') return;
      warn(warning);
    },
  });
  const rootSet = new Set(rootChunks);
  const before = readdirSync(dist).filter((n) => n.startsWith('chunk-') && n.endsWith('.js'));
  for (const f of [...before.map((n) => join(dist, n))]) {
    rmSync(f);
    rmSync(`${f}.map`, { force: true });
  }
  const { output } = await bundle.write({
    dir: dist,
    format: 'esm',
    sourcemap: true,
    entryFileNames: '[name].js',
    chunkFileNames: 'chunk-[hash].js',
    manualChunks: (id) => (rootSet.has(id) ? 'root' : undefined),
    banner: (chunk) => (chunk.isEntry && bins.includes(chunk.facadeModuleId) ? '#!/usr/bin/env node' : ''),
  });
  await bundle.close();
  for (const f of bins) chmodSync(f, 0o755);
  return { before: before.length, after: output.filter((o) => o.type === 'chunk' && !o.isEntry).length, rootChunks: rootChunks.length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = resolve(process.argv[2] ?? 'dist');
  const r = await mergeRootChunks(dist);
  process.stdout.write(`merge-root-chunks: ${r.rootChunks} chunks of the root merged into one; ${r.before} chunks before, ${r.after} after\n`);
}
