// Which real CLI binaries this run drives: those the runner installed (MAM_REAL_CLIS, set by `npm run test:real`), else
// the pinned versions of test/real/clis.json, installed (or reused) now.
// @ts-expect-error -- a plain .mjs script without types
import { installRealClis, quietEnv as quiet } from '../../../scripts/install-real-clis.mjs';

export type CliName = 'codex' | 'opencode' | 'claude' | 'gemini';

export interface InstalledCli {
  package: string;
  version: string;
  pinned: string;
  bin: string;
  dir: string;
  pluginDir?: string;
}

/** Every auto-updater, telemetry and nonessential-traffic switch, off. */
export const quietEnv = quiet as Record<string, string>;

let cached: Record<string, InstalledCli> | undefined;

export function realCli(name: CliName): InstalledCli {
  if (cached === undefined) {
    const fromRunner = process.env['MAM_REAL_CLIS'];
    cached = (fromRunner ? JSON.parse(fromRunner) : installRealClis()) as Record<string, InstalledCli>;
  }
  const cli = cached[name];
  if (cli === undefined) throw new Error(`${name} was not installed for this run`);
  return cli;
}
