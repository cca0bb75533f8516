import type { ProcessPort } from '../../ports/process.js';
import type { OpencodeLocation } from './opencode-locator.js';

/** How long `opencode session delete` may take. */
const DELETE_TIMEOUT_MS = 60_000;

/**
 * Runs `opencode session delete <id> --standalone` for the home (2.x removes the session and its child sessions from its
 * own tables); true only when it ran and exited 0.
 * @public
 */
export async function runOpencodeSessionDelete(proc: ProcessPort, loc: OpencodeLocation, id: string): Promise<boolean> {
  if (loc.binary === null) return false;
  try {
    const r = await proc.run(loc.binary, ['session', 'delete', id, '--standalone'], { env: loc.runEnv, cwd: await loc.runCwd(), timeoutMs: DELETE_TIMEOUT_MS });
    return !r.failed && !r.timedOut;
  } catch {
    return false;
  }
}
