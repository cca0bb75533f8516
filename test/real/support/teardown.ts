// What every real-CLI suite ends with: the live CLI's group and the TUI killed, the sleeper shells ended, the model
// server closed, every process left in the sandbox killed, and the sandbox removed (kept with MAM_REAL_KEEP set).
import type { FakeModelServer } from '../../../src/testing/index.js';
import { killSandboxProcesses, type LiveCli } from './run-cli.js';
import type { RealSandbox } from './sandbox.js';
import type { Sleepers } from './sleeper.js';
import type { TmuxTui } from './tmux.js';

/** The parts a suite may have started (any of them possibly not, when its setup failed early). */
export interface RealSuiteParts {
  live?: LiveCli | undefined;
  tui?: TmuxTui | undefined;
  sleepers?: Sleepers | undefined;
  server?: FakeModelServer | undefined;
  sb?: RealSandbox | undefined;
}

/** Ends everything a real-CLI suite started; never throws for a part that is already gone. */
export async function tearDownRealSuite(p: RealSuiteParts): Promise<void> {
  p.live?.signalGroup('SIGKILL');
  p.tui?.kill();
  await p.sleepers?.killAll().catch(() => undefined);
  await p.server?.close();
  if (p.sb !== undefined) killSandboxProcesses(p.sb.root);
  if (process.env['MAM_REAL_KEEP'] === undefined) p.sb?.dispose();
}
