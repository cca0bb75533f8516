// Where a purged id's bytes still are in a database's files although no row names it any more: the unused space of a
// b-tree page (between its cell pointers and its cells, freed cells), a free page, an image of a page the `-wal` or the
// main file holds that a newer one supersedes. A byte search alone cannot tell those from a live row that mentions the
// id (a shared table the purge keeps): each hit is placed on its page, and a hit inside a live cell of the current
// image of its page is live; every other hit is a dead copy. Overflow pages are taken as live (their tail is not told
// apart from the value they carry).

/** The page size of a SQLite image (bytes 16–17; 1 means 65536); 0 when it is not a SQLite database file. */
function pageSizeOf(image: Uint8Array): number {
  if (image.length < 100 || Buffer.from(image.buffer, image.byteOffset, 15).toString('latin1') !== 'SQLite format 3') return 0;
  const raw = (image[16]! << 8) | image[17]!;
  return raw === 1 ? 65_536 : raw;
}

function varint(b: Buffer, at: number): [value: number, length: number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const c = b[at + i] ?? 0;
    v = v * 128 + (c & 0x7f);
    if (c < 0x80) return [v, i + 1];
  }
  return [v * 256 + (b[at + 8] ?? 0), 9];
}

// The bytes of a payload of `p` bytes kept on the page itself (the rest goes to overflow pages), per the file format.
function localSize(p: number, usable: number, table: boolean): number {
  const x = table ? usable - 35 : Math.floor(((usable - 12) * 64) / 255) - 23;
  if (p <= x) return p;
  const m = Math.floor(((usable - 12) * 32) / 255) - 23;
  const k = m + ((p - m) % (usable - 4));
  return k <= x ? k : m;
}

/** The live byte ranges of a b-tree page (header, cell pointers, cells), or null when the page is no b-tree page. */
function liveRanges(page: Buffer, pageNo: number, usable: number): Array<[number, number]> | null {
  const h = pageNo === 1 ? 100 : 0;
  const type = page[h];
  if (type !== 2 && type !== 5 && type !== 10 && type !== 13) return null;
  const interior = type === 2 || type === 5;
  const hdr = interior ? 12 : 8;
  const n = page.readUInt16BE(h + 3);
  const ranges: Array<[number, number]> = [[0, h + hdr + 2 * n]];
  for (let i = 0; i < n; i++) {
    const at = h + hdr + 2 * i;
    if (at + 2 > page.length) break;
    const ptr = page.readUInt16BE(at);
    if (ptr === 0 || ptr >= usable) continue;
    let len: number;
    if (type === 5) {
      len = 4 + varint(page, ptr + 4)[1];
    } else {
      const start = type === 2 ? ptr + 4 : ptr;
      const [p, a] = varint(page, start);
      const key = type === 13 ? varint(page, start + a)[1] : 0;
      const local = localSize(p, usable, type === 13);
      len = start - ptr + a + key + local + (local < p ? 4 : 0);
    }
    ranges.push([ptr, ptr + len]);
  }
  return ranges;
}

function hitsIn(buf: Buffer, needles: readonly Buffer[]): Array<[at: number, end: number]> {
  const out: Array<[number, number]> = [];
  for (const n of needles) for (let at = buf.indexOf(n); at >= 0; at = buf.indexOf(n, at + 1)) out.push([at, at + n.length]);
  return out;
}

/**
 * Where the dead copies of an id are: their count, and the pages (1-based) of the current image holding one; `stale` counts
 * the copies in page images something newer supersedes (a checkpoint overwrites or drops them).
 * @public
 */
export interface DeadCopyScan {
  /** Every byte copy of a needle that no live row holds. */
  copies: number;
  /** The pages of the database as it is now whose unused space, or which as free pages, hold a copy. */
  pages: number[];
  /** How many of `copies` are in superseded page images (the main file under a newer `-wal` frame, old or uncommitted frames). */
  stale: number;
}

interface Frame {
  pgno: number;
  at: number;
}

// The frames of a `-wal` image: the committed ones (the newest of each page wins) and the rest (old, uncommitted, stale).
function walFrames(wal: Buffer, size: number): { latest: Map<number, Frame>; dbPages: number; other: Frame[] } {
  const latest = new Map<number, Frame>();
  const other: Frame[] = [];
  if (wal.length < 32 || (wal.readUInt32BE(0) & 0xfffffffe) !== 0x377f0682 || wal.readUInt32BE(8) !== size) {
    return { latest, dbPages: 0, other: wal.length > 32 ? [{ pgno: 0, at: 0 }] : [] };
  }
  const salt = wal.subarray(16, 24);
  let pending: Frame[] = [];
  let dbPages = 0;
  let valid = true;
  for (let at = 32; at + 24 + size <= wal.length; at += 24 + size) {
    const f = { pgno: wal.readUInt32BE(at), at: at + 24 };
    if (!valid || !wal.subarray(at + 8, at + 16).equals(salt)) {
      valid = false;
      other.push(f);
      continue;
    }
    pending.push(f);
    const commit = wal.readUInt32BE(at + 4);
    if (commit > 0) {
      for (const p of pending) {
        const had = latest.get(p.pgno);
        if (had !== undefined) other.push(had);
        latest.set(p.pgno, p);
      }
      pending = [];
      dbPages = commit;
    }
  }
  return { latest, dbPages, other: [...other, ...pending] };
}

/**
 * Finds the dead copies of `needles` (UTF-8) in a database's main-file image and its `-wal` image (empty when none): the
 * current image of each page is the newest committed `-wal` frame of it, else the main file's; a copy in a free page or
 * outside the live cells of a b-tree page is dead, and so is every copy in a superseded image. Nothing for an image
 * that is not SQLite.
 * @public
 */
export function scanDeadCopies(main: Uint8Array, wal: Uint8Array, needles: readonly string[]): DeadCopyScan {
  const none: DeadCopyScan = { copies: 0, pages: [], stale: 0 };
  const m = Buffer.from(main.buffer, main.byteOffset, main.byteLength);
  const w = Buffer.from(wal.buffer, wal.byteOffset, wal.byteLength);
  const bytes = [...new Set(needles)].filter((n) => n.length > 0).map((n) => Buffer.from(n, 'utf8'));
  const size = pageSizeOf(m);
  if (size === 0 || bytes.length === 0) return none;
  // Nothing to place when neither file holds any copy (the common case: one search each).
  if (!bytes.some((b) => m.includes(b) || w.includes(b))) return none;
  const frames = walFrames(w, size);
  const pageCount = Math.max(frames.dbPages, Math.floor(m.length / size));
  const page = (p: number): Buffer => {
    const f = frames.latest.get(p);
    return f !== undefined ? w.subarray(f.at, f.at + size) : m.subarray((p - 1) * size, p * size);
  };
  const head = pageCount > 0 ? page(1) : Buffer.alloc(0);
  const reserved = m[20] ?? 0;
  const usable = size - reserved;
  // The freelist is read from the current page 1 and the current trunk pages.
  const free = new Set<number>();
  if (head.length >= 100) {
    let trunk = head.readUInt32BE(32);
    while (trunk > 0 && trunk <= pageCount && !free.has(trunk)) {
      free.add(trunk);
      const t = page(trunk);
      if (t.length < size) break;
      const count = t.readUInt32BE(4);
      for (let i = 0; i < count && 12 + 4 * i <= size; i++) {
        const leaf = t.readUInt32BE(8 + 4 * i);
        if (leaf > 0 && leaf <= pageCount) free.add(leaf);
      }
      trunk = t.readUInt32BE(0);
    }
  }
  let copies = 0;
  let stale = 0;
  const pages = new Set<number>();
  const livePage = (p: number): boolean => p <= pageCount && !free.has(p);
  // The main file's pages: current unless a committed frame supersedes them.
  for (const [at, end] of hitsIn(m, bytes)) {
    const first = Math.floor(at / size) + 1;
    const last = Math.floor((end - 1) / size) + 1;
    if (frames.latest.has(first) || frames.latest.has(last) || !livePage(first)) {
      copies++;
      if (frames.latest.has(first) || first > pageCount) stale++;
      else pages.add(first);
      continue;
    }
    if (first !== last || deadOnPage(page(first), first, usable, at - (first - 1) * size, end - (first - 1) * size)) {
      copies++;
      pages.add(first);
    }
  }
  // The `-wal`: a copy in the newest committed frame of its page is placed like one in the main file; any other is stale.
  const latestAt = new Map([...frames.latest.values()].map((f) => [f.at, f.pgno]));
  for (const [at, end] of hitsIn(w, bytes)) {
    const frameAt = frames.dbPages === 0 ? -1 : 32 + 24 + Math.floor((at - 32) / (24 + size)) * (24 + size);
    const pgno = latestAt.get(frameAt);
    if (pgno === undefined || at < frameAt || end > frameAt + size) {
      copies++;
      stale++;
      continue;
    }
    if (!livePage(pgno) || deadOnPage(page(pgno), pgno, usable, at - frameAt, end - frameAt)) {
      copies++;
      pages.add(pgno);
    }
  }
  return { copies, pages: [...pages].sort((a, b) => a - b), stale };
}

// True when the bytes [at, end) of a b-tree page lie (partly) outside its live cells; a page of another kind (overflow,
// pointer map) is taken as live.
function deadOnPage(page: Buffer, pageNo: number, usable: number, at: number, end: number): boolean {
  const live = liveRanges(page, pageNo, usable);
  if (live === null) return false;
  return !live.some(([s, e]) => s <= at && end <= e);
}
