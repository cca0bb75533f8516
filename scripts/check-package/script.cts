// A CommonJS TypeScript script run by `npx tsx script.cts`: on Node 20, tsx's CommonJS loader cannot `require()` an ES
// module that imports another (ERR_VM_MODULE_LINK_FAILURE), so the README says to load the package with `import()`.
import type * as Core from '@mam/core';

async function main(): Promise<void> {
  const core: typeof Core = await import('@mam/core');
  if (typeof core.getAdapter('codex').discover !== 'function') throw new Error('no adapter');
  console.log('cts ok');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
