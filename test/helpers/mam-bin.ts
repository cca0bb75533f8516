import { join } from 'node:path';

/** The built `mam` bin (package.json `bin`), built before the run by test/support/build-dist.ts. */
export const MAM_BIN = join(import.meta.dirname, '../../dist/cli.js');

