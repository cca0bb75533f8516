/** Bytes grok's cwd encoding leaves as they are (`urlencoding::encode`: RFC 3986 unreserved). */
const UNRESERVED = /^[A-Za-z0-9\-_.~]$/;
/** The longest directory name grok writes as the URL-encoded cwd; longer ones become `<slug>-<blake3 hex16>` + `.cwd`. */
const MAX_DIRNAME_BYTES = 255;

/**
 * The bucket name grok gives a cwd (`sessions/<name>/`): every UTF-8 byte but `A-Za-z0-9-_.~` as `%XX` (upper-case hex),
 * or null when that is longer than 255 bytes (grok then uses a hashed slug, found back through the bucket's `.cwd`).
 * @public
 */
export function encodeGrokCwd(cwd: string): string | null {
  let out = '';
  for (const byte of Buffer.from(cwd, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && UNRESERVED.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out.length <= MAX_DIRNAME_BYTES ? out : null;
}

/**
 * The cwd a URL-encoded bucket name stands for, or null when the name does not decode to an absolute path (a hashed
 * slug bucket, whose cwd is in its `.cwd`, or a name grok did not write).
 * @public
 */
export function decodeGrokBucket(name: string): string | null {
  try {
    const cwd = decodeURIComponent(name);
    return cwd.startsWith('/') && !cwd.includes('\0') ? cwd : null;
  } catch {
    return null;
  }
}
