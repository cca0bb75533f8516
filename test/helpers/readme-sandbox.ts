// The README tour's variables, pointing into a fresh copy of real Codex files: `home` and `env` as the Codex CLI
// had them, `workspace` the repository of its first conversation, `dir` an empty scratch directory.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { materializeStage } from './real-stage.js';
import type { TourVars } from './readme-run.js';

export const TOUR_STAGE = 'codex/03-two-sessions';

/** Lays out the tour's sandbox under `root` (a fresh directory). */
export function tourSandbox(root: string): TourVars {
  const stage = materializeStage(TOUR_STAGE, join(root, 'real'));
  const dir = join(root, 'scratch');
  mkdirSync(dir);
  return { home: stage.home, env: { ...stage.env }, workspace: join(stage.root, 'ws-codex'), dir };
}
