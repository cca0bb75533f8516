import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' },
  format: ['esm', 'cjs'],
  dts: { banner: '/**\n * Typed core of a multi-agent mux.\n *\n * @packageDocumentation\n */' },
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  clean: true,
  splitting: true,
  shims: true,
  external: ['better-sqlite3'],
});
