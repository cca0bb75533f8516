import type { IncomingMessage } from 'node:http';
import * as zlib from 'node:zlib';

// Some clients compress request bodies; zstd is only in newer Node versions, so it is looked up, not imported.
const decode = (raw: Buffer, encoding: string | undefined): Buffer => {
  switch (encoding?.toLowerCase()) {
    case undefined:
    case '':
    case 'identity':
      return raw;
    case 'gzip':
      return zlib.gunzipSync(raw);
    case 'deflate':
      return zlib.inflateSync(raw);
    case 'br':
      return zlib.brotliDecompressSync(raw);
    case 'zstd': {
      const zstd = (zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
      if (zstd === undefined) throw new Error('zstd request bodies need a newer Node');
      return zstd(raw);
    }
    default:
      throw new Error(`unsupported content-encoding ${encoding}`);
  }
};

/** Reads a request body and parses it as JSON; undefined when empty or not JSON. */
export async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = decode(Buffer.concat(chunks), req.headers['content-encoding']).toString('utf8');
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
