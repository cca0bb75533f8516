import { resolve } from 'node:path';
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

const SRC_INDEX = resolve('src/index.ts');

// The named subpaths (`@mam/core/<name>`, src/entries/<name>.ts), each built to dist/<name>.js; package.json `exports` lists them.
export const SUBPATH_NAMES = ['adapters',  'fs',  'herdr',  'jobs',  'lifecycle',  'loop',  'node',  'registry',  'reset',  'sqlite'] as const;
const SUBPATHS = Object.fromEntries(SUBPATH_NAMES.map((n) => [n, `src/entries/${n}.ts`]));

export default defineConfig([
  {
    ...common,
    entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts', ...SUBPATHS },
    dts: { banner: '/**\n * Typed core of a multi-agent mux.\n *\n * @packageDocumentation\n */' },
    clean: true,
  },
  {
    // The `mam` bin: its commands import the package's own entry (`../../index.js` in src), which here becomes an import
    // of `@mam/core` itself (resolved by Node's package self-reference), so the bin never carries a second copy.
    ...common,
    entry: { cli: 'src/cli/mam.ts' },
    clean: false,
    esbuildOptions(options) {
      options.chunkNames = 'cli/[name]-[hash]';
    },
    esbuildPlugins: [
      {
        name: 'mam-self-reference',
        setup(build) {
          build.onResolve({ filter: /(^|\/)index\.js$/ }, (args) => {
            if (!args.importer.includes('/src/cli/')) return undefined;
            return resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')) === SRC_INDEX ? { path: '@mam/core', external: true } : undefined;
          });
        },
      },
    ],
  },
]);
