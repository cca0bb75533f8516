import Database from './driver.js';

// Bytes 18 and 19 of the header are the write and read format versions: 2 means WAL, which an
// in-memory database cannot open ("unable to open database file"); 1 reads the same pages.
function clearWalFlag(buf: Buffer): void {
  for (const at of [18, 19]) if (buf[at] === 2) buf[at] = 1;
}

/**
 * Opens a read-only in-memory database from a file image (the caller's bytes, whose WAL flag is cleared in place first).
 * @internal
 */
export function openMemoryImage(bytes: Uint8Array): Database.Database {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  clearWalFlag(buf);
  return new Database(buf, { readonly: true });
}
