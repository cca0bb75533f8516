import { dirname, join } from 'node:path';
import { withLock } from '../atomic/lock.js';
import { isPortError } from '../errors.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { checkPathArg, workspaceExists } from '../validation/workspace-args.js';
import { resolvePorts } from '../node/node-ports.js';
import type { Ports } from '../ports/index.js';
import type { ProcessInfo } from '../ports/process.js';
import { isLiveProcess } from '../ports/process-live.js';
import { checkLoopGuardOptions, type LoopGuardOptions } from './loop-guard-options.js';

/**
 * What a pid marker (`.mam/loop-guard-active`, `.mam/update-in-progress`) says: `pid=`, `lstart=` (`ps -o lstart=`),
 * `started=`, and the optional `start_ticks=` (`/proc` clock ticks) and `holder=` lines this library adds.
 * @public
 */
export interface PidMarker {
  /** The holder's pid (`pid=`). */
  pid: number;
  /** The holder's start as `ps -o lstart=` prints it in local time (`lstart=`), or null when absent. */
  lstart: string | null;
  /** When the marker was written, ISO 8601 (`started=`), or null when absent. */
  started: string | null;
  /** The holder's start in `/proc` clock ticks (`start_ticks=`), or null when absent. */
  startTicks: number | null;
  /** Who holds it, e.g. `loop` or `reset` (`holder=`), or null when absent. */
  holder: string | null;
}

/**
 * What a marker file means now: absent; live (its pid exists with that start, or the start cannot be told); stale
 * (dead pid, or a pid started at another time); unreadable (young: a writer mid-create, counted live; old: stale).
 * @public
 */
export type PidMarkerState =
  | { kind: 'absent' }
  | { kind: 'live'; marker: PidMarker; reason: string }
  | { kind: 'stale'; marker: PidMarker | null; reason: string }
  | { kind: 'unreadable'; problem: string };

/**
 * The outcome of {@link LoopGuard.acquire}: the guard, or a refusal with the live holder and the message a person reads.
 * @public
 */
export type LoopGuardAcquire =
  | { kind: 'acquired'; guard: LoopGuardHandle }
  | { kind: 'refused'; state: Extract<PidMarkerState, { kind: 'live' | 'unreadable' }>; message: string };

/**
 * A held loop guard; `release()` removes the marker only while it is still this holder's (idempotent).
 * @public
 */
export interface LoopGuardHandle {
  /** The marker file held. */
  readonly path: string;
  /** What this holder wrote into it. */
  readonly marker: PidMarker;
  /** Removes the marker if it is still this holder's; resolves true when it removed it. */
  release(): Promise<boolean>;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LSTART = /^\s*[A-Z][a-z]{2}\s+([A-Z][a-z]{2})\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s+(\d{4})\s*$/;
const YOUNG_UNREADABLE_MS = 10_000;
// Markers this process wrote but could not remove on release (`path`, pid, `started`): held by nobody, so stale here,
// where this live pid would otherwise keep them live until the process exits.
const unreleased = new Set<string>();
const SLACK_MS = 2000;
const QUARTER_HOUR_MS = 15 * 60_000;

/** `ps -o lstart=` of an instant in this process's local time, spaces collapsed (as the reference tool writes it). */
function lstartOf(ms: number): string {
  const d = new Date(ms);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${DAYS[d.getDay()]} ${MONTHS[d.getMonth()]} ${d.getDate()} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())} ${d.getFullYear()}`;
}

/** The wall-clock fields of an lstart read as if they were UTC, or null. */
function wallAsUtc(text: string): number | null {
  const m = LSTART.exec(text);
  if (m === null) return null;
  const [, mon, day, hh, mm, ss, year] = m;
  const month = MONTHS.indexOf(mon ?? '');
  return month < 0 ? null : Date.UTC(Number(year), month, Number(day), Number(hh), Number(mm), Number(ss));
}

/**
 * Parses a pid marker's text (`key=value` lines, unknown keys ignored); null when it names no usable pid.
 * @public
 */
export function parsePidMarker(text: string): PidMarker | null {
  const kv = new Map<string, string>();
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) kv.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  const pid = Number(kv.get('pid'));
  if (!/^[1-9][0-9]{0,9}$/.test(kv.get('pid') ?? '') || !Number.isSafeInteger(pid)) return null;
  const ticks = kv.get('start_ticks');
  return {
    pid,
    lstart: kv.get('lstart') || null,
    started: kv.get('started') || null,
    startTicks: ticks !== undefined && /^[0-9]{1,18}$/.test(ticks) ? Number(ticks) : null,
    holder: kv.get('holder') || null,
  };
}

/** Is this process the one the marker names: same start ticks when both are known, else the same lstart (any time zone). */
function sameStart(marker: PidMarker, proc: ProcessInfo): { same: boolean | null; reason: string } {
  if (marker.startTicks !== null && proc.startTicks !== undefined) {
    return { same: marker.startTicks === proc.startTicks, reason: 'start ticks' };
  }
  const wall = marker.lstart === null ? null : wallAsUtc(marker.lstart);
  if (wall === null || proc.startedAtMs === null) return { same: null, reason: 'its start cannot be told' };
  const start = proc.startedAtMs;
  const local = start - new Date(start).getTimezoneOffset() * 60_000;
  if (Math.abs(wall - local) <= SLACK_MS || Math.abs(wall - start) <= SLACK_MS) return { same: true, reason: 'lstart' };
  // Written in another time zone (the reference tool prints local time): a whole number of quarter hours apart.
  const off = wall - start;
  const rem = ((off % QUARTER_HOUR_MS) + QUARTER_HOUR_MS) % QUARTER_HOUR_MS;
  const shifted = Math.abs(off) <= 14 * 3_600_000 + SLACK_MS && (rem <= SLACK_MS || QUARTER_HOUR_MS - rem <= SLACK_MS);
  return { same: shifted, reason: shifted ? 'lstart in another time zone' : 'lstart' };
}

/**
 * The body of {@link LoopGuard} (loop-guard.ts), loaded on its first call.
 */
export class LoopGuardImpl {
  /** The marker file. */
  readonly path: string;
  readonly #ports: Ports;
  readonly #lockTimeoutMs: number;
  readonly #exists: () => Promise<void>;

  /** A guard on `<workspace>/.mam/loop-guard-active` (or `markerPath`); nothing is read until a call. */
  constructor(workspace: string, options: LoopGuardOptions = {}) {
    checkPathArg('workspace', workspace);
    const opts = checkLoopGuardOptions(options);
    this.path = opts.markerPath ?? join(workspace, '.mam', 'loop-guard-active');
    this.#ports = resolvePorts(opts.ports);
    this.#exists = workspaceExists(this.#ports.fs, 'workspace', workspace);
    this.#lockTimeoutMs = opts.lockTimeoutMs ?? 10_000;
  }

  /** What the marker means now; never writes. */
  async inspect(): Promise<PidMarkerState> {
    return (await this.#look()).state;
  }

  /** Takes the guard, or refuses while a live holder has it ("Another multi-agent-mux-loop is already running"). */
  async acquire(opts: { holder?: string } = {}): Promise<LoopGuardAcquire> {
    if (typeof opts !== 'object' || opts === null) throw new InvalidArgumentError('opts', 'must be an object');
    if (opts.holder !== undefined && typeof opts.holder !== 'string') throw new InvalidArgumentError('opts.holder', 'must be a string');
    await this.#exists();
    const { fs, clock } = this.#ports;
    await fs.mkdir(dirname(this.path), { recursive: true });
    return withLock(`${this.path}.lock`, { clock, timeoutMs: this.#lockTimeoutMs }, async () => {
      for (let round = 0; round < 3; round++) {
        const seen = await this.#look();
        if (seen.state.kind === 'live' || seen.state.kind === 'unreadable') return { kind: 'refused', state: seen.state, message: refusal(seen.state) };
        if (seen.state.kind === 'stale' && !(await this.#moveAside(seen.ino))) continue;
        const marker = await this.#own(opts.holder ?? null);
        try {
          await fs.writeFile(this.path, markerText(marker), { exclusive: true, sync: true });
        } catch (err) {
          if (isPortError(err, 'AlreadyExists')) continue;
          throw err;
        }
        return { kind: 'acquired', guard: this.#handle(marker) };
      }
      const last = (await this.#look()).state;
      const state = last.kind === 'live' || last.kind === 'unreadable' ? last : ({ kind: 'unreadable', problem: 'the marker kept changing while it was being taken' } as const);
      return { kind: 'refused', state, message: refusal(state) };
    });
  }

  async #own(holder: string | null): Promise<PidMarker> {
    const { proc, clock } = this.#ports;
    const pid = proc.selfPid();
    const self = await proc.lookup(pid).catch(() => null);
    const startMs = self?.startedAtMs ?? null;
    const lstart = (await this.#psLstart(pid)) ?? (startMs === null ? null : lstartOf(startMs));
    return { pid, lstart, started: new Date(clock.now()).toISOString(), startTicks: self?.startTicks ?? null, holder };
  }

  // Exactly what the reference tool compares against (`ps -o lstart=`, local time); null where ps cannot say.
  async #psLstart(pid: number): Promise<string | null> {
    const { proc } = this.#ports;
    try {
      const r = await proc.run('ps', ['-o', 'lstart=', '-p', String(pid)], { env: { ...proc.env(), LC_ALL: 'C' }, timeoutMs: 5000 });
      const text = r.stdout.trim().split(/\s+/).join(' ');
      return !r.failed && LSTART.test(text) ? text : null;
    } catch {
      return null;
    }
  }

  async #look(): Promise<{ state: PidMarkerState; ino: number | null; text: string | null }> {
    const { fs, proc, clock } = this.#ports;
    let ino: number;
    let mtimeMs: number;
    let text: string;
    try {
      ({ ino, mtimeMs } = await fs.lstat(this.path));
      text = await fs.readText(this.path);
    } catch (err) {
      if (isPortError(err, 'NotFound')) return { state: { kind: 'absent' }, ino: null, text: null };
      throw err;
    }
    const marker = parsePidMarker(text);
    if (marker === null) {
      if (clock.now() - mtimeMs < YOUNG_UNREADABLE_MS) return { state: { kind: 'unreadable', problem: 'it names no pid (a writer may be mid-create)' }, ino, text };
      return { state: { kind: 'stale', marker: null, reason: 'it names no pid' }, ino, text };
    }
    if (marker.pid === proc.selfPid() && unreleased.has(`${this.path}\n${marker.pid}\n${marker.started}`)) {
      return { state: { kind: 'stale', marker, reason: `pid ${marker.pid} (this process) could not remove it when it released the guard` }, ino, text };
    }
    const p = await proc.lookup(marker.pid).catch(() => undefined);
    if (p === undefined) return { state: { kind: 'live', marker, reason: `pid ${marker.pid} could not be looked up` }, ino, text };
    if (p === null) return { state: { kind: 'stale', marker, reason: `pid ${marker.pid} is not running` }, ino, text };
    if (!isLiveProcess(p)) return { state: { kind: 'stale', marker, reason: `pid ${marker.pid} has exited (a ${p.state} process nobody reaped)` }, ino, text };
    const { same, reason } = sameStart(marker, p);
    if (same === false) return { state: { kind: 'stale', marker, reason: `pid ${marker.pid} was started at another time (${reason}): a reused pid` }, ino, text };
    return { state: { kind: 'live', marker, reason: same === null ? `pid ${marker.pid} is running and ${reason}` : `pid ${marker.pid} is running (${reason} matches)` }, ino, text };
  }

  // Moves the stale marker aside and checks it is the file that was judged (same inode); another file is put back.
  async #moveAside(ino: number | null): Promise<boolean> {
    const { fs, proc, clock } = this.#ports;
    const aside = `${this.path}.stale-${proc.selfPid()}-${clock.now()}`;
    try {
      await fs.rename(this.path, aside);
    } catch (err) {
      if (isPortError(err, 'NotFound')) return true;
      throw err;
    }
    if ((await fs.lstat(aside)).ino === ino) {
      await fs.unlink(aside);
      return true;
    }
    const bytes = await fs.readFile(aside);
    await fs.writeFile(this.path, bytes, { exclusive: true, sync: true }).catch(() => undefined);
    await fs.unlink(aside);
    return false;
  }

  #handle(marker: PidMarker): LoopGuardHandle {
    const { fs, clock } = this.#ports;
    let held = true;
    return {
      path: this.path,
      marker,
      release: async () => {
        if (!held) return false;
        held = false;
        return withLock(`${this.path}.lock`, { clock, timeoutMs: this.#lockTimeoutMs }, async () => {
          const now = await fs.readText(this.path).catch(() => null);
          const m = now === null ? null : parsePidMarker(now);
          if (m === null || m.pid !== marker.pid || m.started !== marker.started) return false;
          await fs.unlink(this.path).catch((err: unknown) => {
            unreleased.add(`${this.path}\n${marker.pid}\n${marker.started}`);
            throw err;
          });
          return true;
        });
      },
    };
  }
}

function markerText(m: PidMarker): string {
  const lines = [`pid=${m.pid}`, `lstart=${m.lstart ?? ''}`, `started=${m.started ?? ''}`];
  if (m.startTicks !== null) lines.push(`start_ticks=${m.startTicks}`);
  if (m.holder !== null) lines.push(`holder=${m.holder}`);
  return `${lines.join('\n')}\n`;
}

function refusal(state: Extract<PidMarkerState, { kind: 'live' | 'unreadable' }>): string {
  if (state.kind === 'unreadable') return `Another multi-agent-mux-loop is already running (the loop guard marker is being written, ${state.problem}); try again in a moment`;
  const m = state.marker;
  const by = m.holder === null ? '' : `, held by ${m.holder}`;
  return `Another multi-agent-mux-loop is already running (pid ${m.pid}${m.started === null ? '' : `, since ${m.started}`}${by})`;
}
