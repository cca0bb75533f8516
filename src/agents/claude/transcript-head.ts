import type { FileSystemPort } from '../../ports/fs.js';

/**
 * What the first records of a Claude transcript say: the session's cwd (first record carrying one) and its start (first
 * record carrying a top-level `timestamp`), each null when the head read holds none.
 * @public
 */
export interface TranscriptHead {
  cwd: string | null;
  startMs: number | null;
}

// Reads grow by this factor up to the cap: a first prompt may be a huge paste, but most heads fit the first chunk.
const FIRST_READ = 4 * 1024;
const GROWTH = 8;

/**
 * The most of a transcript's start any head read takes, discovery and verification alike (a huge first prompt is in the
 * queued record and again in the first record carrying the cwd): the last read is exactly this long.
 * @public
 */
export const TRANSCRIPT_HEAD_MAX_BYTES = 64 * 1024 * 1024;

function timestampMs(value: unknown): number | null {
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    return Number.isFinite(ms) ? ms : null;
  }
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value > 1e11 ? value : value * 1000;
  return null;
}

/**
 * Scans JSONL text for the first `cwd` and the first top-level `timestamp`; `complete` says the text is the whole file (else
 * a last line without its newline is left for a longer read). `done` is true once both were found (once the cwd was, with
 * `cwdOnly`: the start is then whatever the records before it held).
 * @public
 */
export function parseTranscriptHead(text: string, complete: boolean, cwdOnly = false): { head: TranscriptHead; done: boolean } {
  const head: TranscriptHead = { cwd: null, startMs: null };
  const end = complete ? text.length : text.lastIndexOf('\n') + 1;
  let start = 0;
  while (start < end) {
    const nl = text.indexOf('\n', start);
    const stop = nl === -1 || nl > end ? end : nl;
    const line = text.slice(start, stop).trim();
    start = stop + 1;
    if (line === '' || line[0] !== '{') continue;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      continue;
    }
    if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) continue;
    const r = rec as Record<string, unknown>;
    if (head.cwd === null && typeof r['cwd'] === 'string' && r['cwd'] !== '') head.cwd = r['cwd'];
    if (head.startMs === null) head.startMs = timestampMs(r['timestamp']);
    if (head.cwd !== null && (cwdOnly || head.startMs !== null)) return { head, done: true };
  }
  return { head, done: false };
}

/**
 * Reads only as much of a transcript as it takes to find its cwd and start (growing reads from the start of the file, capped;
 * with `cwdOnly`, only its cwd: a check of the workspace needs no start); rejects with the port's error when the file cannot
 * be read.
 * @public
 */
export async function readTranscriptHead(fs: FileSystemPort, path: string, cwdOnly = false): Promise<TranscriptHead> {
  const decoder = new TextDecoder('utf-8', { fatal: false });
  let last: TranscriptHead = { cwd: null, startMs: null };
  // Regression (issue 31): the reads went 4 KiB, 32 KiB … 16 MiB and stopped there (the next, 128 MiB, was over the cap),
  // so a first prompt of 16 MiB or more hid the cwd: the last read is now the cap itself.
  for (let size = FIRST_READ; ; size = Math.min(size * GROWTH, TRANSCRIPT_HEAD_MAX_BYTES)) {
    const bytes = await fs.readHead(path, size);
    const complete = bytes.length < size;
    const { head, done } = parseTranscriptHead(decoder.decode(bytes), complete, cwdOnly);
    last = head;
    if (done || complete || size >= TRANSCRIPT_HEAD_MAX_BYTES) return last;
  }
}
