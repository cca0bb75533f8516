import { join } from 'node:path';
import { describeError, isPortError, PortError } from '../errors.js';
import { writeFileAtomic } from '../atomic/atomic-write.js';
import type { Ports } from '../ports/index.js';
import type { ProcessInfo } from '../ports/process.js';
import type { SessionRegistry } from '../registry/session-registry.js';
import { judgeIdOrderMarker } from './id-order-judge.js';
import { type IdOrderMarker, idOrderMarkerFileName, idOrderMarkerText, isIdOrderMarkerFileName, parseIdOrderMarker } from './id-order-marker.js';
import { type IdOrderBlocker, idOrderCloseCommand } from './id-order-refusal.js';
import { liveIdOrderTokens, markIdOrderTokenLive } from './id-order-ticket.js';
import type { IdOrderUnremoved } from './id-order-unremoved.js';

/**
 * A marker the gate removed, and why.
 * @public
 */
export interface IdOrderPruned {
  /** The marker file removed. */
  file: string;
  /** Its content when it was judged. */
  marker: IdOrderMarker;
  /** The verdict that let it go (see {@link IdOrderVerdict}). */
  reason: 'own-leftover' | 'registered' | 'gone';
}

/**
 * What one look at the markers (under the gate lock) needs.
 * @public
 */
export interface IdOrderRoundInput {
  /** The ports the look reads and writes through. */
  ports: Ports;
  /** The workspace's registry: a dead owner's marker goes when its row is registered for the attempt. */
  registry: SessionRegistry;
  /** The cwd's marker dir under `.mam/id-order/`. */
  dir: string;
  /** The calling process (start null when it could not be looked up). */
  self: ProcessInfo | { pid: number; startedAtMs: null };
  /** The marker to write when nothing blocks. */
  mine: IdOrderMarker;
  /** The last answer a probe that ran gave per marker file in this wait (updated in place). */
  lastProbe: Map<string, 'present' | 'server_not_running' | 'unknown'>;
  /** The marker files herdr said, at least once in this wait, are alive (the only definite answer that keeps a marker). */
  seenPresent: Set<string>;
  /** Milliseconds left until the wait's deadline; bounds each herdr probe. */
  timeLeftMs: () => number;
}

/**
 * The outcome of one look: written (the gate is passed) or the markers that block; either way the markers it removed and
 * those it judged removable but could not remove (they block nothing).
 * @public
 */
export type IdOrderRound =
  | { kind: 'written'; file: string; pruned: IdOrderPruned[]; unremoved: IdOrderUnremoved[] }
  | { kind: 'blocked'; blockers: IdOrderBlocker[]; pruned: IdOrderPruned[]; unremoved: IdOrderUnremoved[] };

/** A marker is a few hundred bytes; a bigger file is not one (and is never read whole). */
const MAX_MARKER_BYTES = 16 * 1024;

// The marker's text; null when it went meanwhile; '' (unreadable) when it is too big or cannot be read.
async function readMarkerText(input: IdOrderRoundInput, file: string): Promise<string | null> {
  try {
    const head = await input.ports.fs.readHead(file, MAX_MARKER_BYTES + 1);
    return head.length > MAX_MARKER_BYTES ? '' : new TextDecoder().decode(head);
  } catch (err) {
    if (isPortError(err, 'NotFound')) return null;
    if (isPortError(err, 'PermissionDenied') || isPortError(err, 'IsADirectory') || isPortError(err, 'IoError')) return '';
    throw err;
  }
}

// 'removed' by this look, 'gone' meanwhile (e.g. released by its owner), or why the unlink failed: the marker then stays,
// and since every look judges it again, it blocks nothing a removed one would not.
async function removeMarker(input: IdOrderRoundInput, file: string): Promise<'removed' | 'gone' | { error: string }> {
  try {
    await input.ports.fs.unlink(file);
    return 'removed';
  } catch (err) {
    if (isPortError(err, 'NotFound')) return 'gone';
    if (err instanceof PortError) return { error: describeError(err) };
    throw err;
  }
}

// An orphan's blocker. A look with no time left to ask herdr reports the last probe of this wait that ran, so an alive
// orphan whose final look ran out of time still reads as alive (seed 003).
function orphanBlocker(input: IdOrderRoundInput, file: string, marker: IdOrderMarker, answer: 'present' | 'server_not_running' | 'unknown' | 'no-time'): IdOrderBlocker {
  const last = answer === 'no-time' ? input.lastProbe.get(file) : answer;
  if (answer !== 'no-time') input.lastProbe.set(file, answer);
  if (answer === 'present') input.seenPresent.add(file);
  const base = { file, marker, closeCommand: idOrderCloseCommand(marker), lastDefinite: input.seenPresent.has(file) ? ('present' as const) : null };
  if (last === 'present') return { ...base, state: 'orphan-alive' };
  return { ...base, state: 'orphan-unknown', why: last ?? 'no-time' };
}

/**
 * Judges every marker of the cwd, removes those that may go, and writes the caller's marker when none blocks. Runs under
 * the gate lock; the only waits in it are herdr probes, each bounded by the time left.
 * @public
 */
export async function idOrderRound(input: IdOrderRoundInput): Promise<IdOrderRound> {
  const { fs, proc, herdr, clock } = input.ports;
  const names = (await fs.readdir(input.dir)).map((e) => e.name).filter(isIdOrderMarkerFileName).sort();
  const registry = await input.registry.snapshot().catch(() => null);
  const ctx = { proc, herdr, clock, self: input.self, liveTokens: liveIdOrderTokens(), registry, timeLeftMs: input.timeLeftMs };
  const blockers: IdOrderBlocker[] = [];
  const pruned: IdOrderPruned[] = [];
  const unremoved: IdOrderUnremoved[] = [];
  for (const name of names) {
    const file = join(input.dir, name);
    const text = await readMarkerText(input, file);
    if (text === null) continue;
    const parsed = parseIdOrderMarker(text);
    if (!parsed.ok) {
      blockers.push({ file, marker: null, state: 'unreadable', problem: parsed.problem, lastDefinite: null, closeCommand: null });
      continue;
    }
    const marker = parsed.marker;
    const verdict = await judgeIdOrderMarker(marker, ctx);
    const base = { file, marker, closeCommand: null };
    switch (verdict.kind) {
      case 'own-leftover':
      case 'registered':
      case 'gone': {
        const removed = await removeMarker(input, file);
        if (removed === 'removed') pruned.push({ file, marker, reason: verdict.kind });
        else if (removed !== 'gone') unremoved.push({ file, marker, reason: verdict.kind, error: removed.error });
        input.lastProbe.delete(file);
        input.seenPresent.delete(file);
        break;
      }
      case 'owner-alive':
        blockers.push({ ...base, state: 'owner-alive', inProcess: verdict.inProcess, lastDefinite: null });
        break;
      case 'orphan-alive':
      case 'orphan-unknown':
        blockers.push(orphanBlocker(input, file, marker, verdict.kind === 'orphan-alive' ? 'present' : verdict.why));
        break;
      default: {
        const never: never = verdict;
        return never;
      }
    }
  }
  if (blockers.length > 0) return { kind: 'blocked', blockers, pruned, unremoved };
  const file = join(input.dir, idOrderMarkerFileName(input.mine));
  markIdOrderTokenLive(input.mine.token);
  try {
    await writeFileAtomic(fs, file, idOrderMarkerText(input.mine));
  } catch (err) {
    markIdOrderTokenLive(input.mine.token, false);
    throw err;
  }
  return { kind: 'written', file, pruned, unremoved };
}
