import { defineConfig } from 'tsup';
import { mergeRootChunks } from './scripts/merge-root-chunks.mjs';

// ESM only: Node >= 20.19 `require()`s it (require(esm)), so CommonJS users get the very same module instances, and no
// CommonJS build can ever `require` an ESM-only dependency (execa). One copy of every class: no dual-package hazard.
// The `mam` bin is an entry of the same build: its commands import the library's modules by relative path (the root
// entry is the curated public API, not the bin's), and splitting puts every module they share with the entries into
// one chunk, so the bin never carries a second copy.
// After the build, the chunks the root entry loads at import are merged into one (scripts/merge-root-chunks.mjs): Node's
// ES module loader pays per file, and esbuild cuts the root's modules into dozens of chunks.

// The named subpaths (`@mam/core/<name>`, src/entries/<name>.ts), each built to dist/<name>.js; package.json `exports` lists them.
export const SUBPATH_NAMES = ['adapters', 'fs', 'herdr', 'jobs', 'lifecycle', 'loop', 'node', 'registry', 'reset', 'sqlite'] as const;
const SUBPATHS = Object.fromEntries(SUBPATH_NAMES.map((n) => [n, `src/entries/${n}.ts`]));
const LIBRARY = { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts', ...SUBPATHS };

export default defineConfig({
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  splitting: true,
  // Dependencies stay imports of the installed packages; heavy ones are loaded lazily by the code that needs them.
  external: ['better-sqlite3', 'execa', 'yaml', 'zod'],
  entry: { ...LIBRARY, cli: 'src/cli/mam.ts' },
  dts: { entry: LIBRARY, banner: '/**\n * Typed core of a multi-agent mux.\n *\n * @packageDocumentation\n */' },
  clean: true,
  onSuccess: async () => {
    await mergeRootChunks('dist');
  },
});
