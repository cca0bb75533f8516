import { isPortError } from '../errors.js';
import { writeFileAtomic } from '../atomic/atomic-write.js';
import type { FileSystemPort } from '../ports/fs.js';
import { type IdOrderMarker, idOrderMarkerText } from './id-order-marker.js';

// The tokens of this process's gate passes not yet released: a marker of this pid whose token is here is a create in
// progress (it blocks like another process's), any other marker of this pid is a leftover (it goes).
const LIVE_TOKENS = new Set<string>();

/**
 * The attempts of this process that hold the gate right now (read-only view).
 * @public
 */
export function liveIdOrderTokens(): ReadonlySet<string> {
  return LIVE_TOKENS;
}

/**
 * Marks an attempt of this process live before its marker is written, so no other look of this process (in the same
 * instant) can take the fresh marker for a leftover; `forget` undoes it when the write failed.
 * @public
 */
export function markIdOrderTokenLive(token: string, live = true): void {
  if (live) LIVE_TOKENS.add(token);
  else LIVE_TOKENS.delete(token);
}

/**
 * A passed gate: the marker stays (and blocks other creates in the cwd) until `release()`; `notePane` records the pane
 * the attempt made, so a refusal elsewhere can print the command that closes it if this process dies.
 * @public
 */
export interface IdOrderTicket {
  /** The marker file this attempt wrote. */
  readonly file: string;
  /** The marker as last written (with `pane_id` once {@link IdOrderTicket.notePane} ran). */
  readonly marker: IdOrderMarker;
  /** True until `release()` ran. */
  readonly held: boolean;
  /** Rewrites the marker atomically with the attempt's pane id; does nothing after `release()`. */
  notePane(paneId: string): Promise<void>;
  /** Removes the marker; idempotent. */
  release(): Promise<void>;
}

/**
 * Registers a passed attempt as live in this process and returns its ticket (the marker file is already written).
 * @public
 */
export function holdIdOrderTicket(fs: FileSystemPort, file: string, marker: IdOrderMarker): IdOrderTicket {
  LIVE_TOKENS.add(marker.token);
  let current = marker;
  let held = true;
  return {
    file,
    get marker() {
      return current;
    },
    get held() {
      return held;
    },
    async notePane(paneId: string): Promise<void> {
      if (!held) return;
      const next = { ...current, pane_id: paneId };
      await writeFileAtomic(fs, file, idOrderMarkerText(next));
      current = next;
    },
    async release(): Promise<void> {
      if (!held) return;
      held = false;
      try {
        await fs.unlink(file);
      } catch (err) {
        if (!isPortError(err, 'NotFound')) throw err;
      } finally {
        LIVE_TOKENS.delete(current.token);
      }
    },
  };
}
