// Kept for old invocations (`tsx examples/cli/mam.ts …`): the CLI now ships as the package's `mam` bin, source in src/cli/.
import { runCli } from '../../src/cli/mam.js';

void runCli();
