import { defineConfig, type Options } from 'tsup';

// ESM only: Node >= 20.19 `require()`s it (require(esm)), so CommonJS users get the very same module instances, and no
// CommonJS build can ever `require` an ESM-only dependency (execa). One copy of every class: no dual-package hazard.
const common: Options = {
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  splitting: true,
  // Dependencies stay imports of the installed packages; heavy ones are loaded lazily by the code that needs them.
  external: ['better-sqlite3', 'execa', 'yaml', 'zod'],
};

export default defineConfig([
  {
    ...common,
    entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' },
    dts: { banner: '/**\n * Typed core of a multi-agent mux.\n *\n * @packageDocumentation\n */' },
    clean: true,
  },
  {
    // The `mam` bin: its commands import the library's modules by relative path (the root entry is the curated public
    // API, not the bin's), so the bin carries its own copy; `isMamError` recognises a fault of either copy by its brand.
    ...common,
    entry: { cli: 'src/cli/mam.ts' },
    clean: false,
    esbuildOptions(options) {
      options.chunkNames = 'cli/[name]-[hash]';
    },
  },
]);
