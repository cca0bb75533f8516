// readRegularFile reads a buffer of the size lstat saw (plus one byte), not of the cap: a file that has grown since (a
// summary replaced between the lstat and the open) is read again whole, and one over the cap is still refused; `head`
// reads the first bytes of any size; a file gone before the read is missing, not a problem.
import { describe, expect, it } from 'vitest';
import { readRegularFile } from '../../../src/agents/common/read-regular.js';
import { PortError } from '../../../src/errors.js';
import type { FileStat, FileSystemPort } from '../../../src/ports/fs.js';

function fsOf(text: string, seenSize: number, heads: number[]): FileSystemPort {
  const bytes = Buffer.from(text, 'utf8');
  const st: FileStat = { kind: 'file', size: seenSize, mtimeMs: 0, mode: 0o100644, uid: 0, dev: 1, ino: 1, nlink: 1 };
  return {
    lstat: async () => st,
    readHead: async (_p: string, max: number) => {
      heads.push(max);
      return new Uint8Array(bytes.subarray(0, max));
    },
  } as unknown as FileSystemPort;
}

describe('readRegularFile', () => {
  it('reads the size lstat saw and one byte more', async () => {
    const heads: number[] = [];
    expect(await readRegularFile(fsOf('{"a":1}', 7, heads), '/x', 1024)).toEqual({ kind: 'text', text: '{"a":1}', mtimeMs: 0 });
    expect(heads).toEqual([8]);
  });

  it('a file that grew after the lstat is read again whole, not cut at the size first seen', async () => {
    const heads: number[] = [];
    expect(await readRegularFile(fsOf('{"a":1,"b":2}', 7, heads), '/x', 1024)).toEqual({ kind: 'text', text: '{"a":1,"b":2}', mtimeMs: 0 });
    expect(heads).toEqual([8, 1025]);
  });

  it('a file that grew past the cap after the lstat is refused', async () => {
    const heads: number[] = [];
    expect((await readRegularFile(fsOf('x'.repeat(40), 7, heads), '/x', 16)).kind).toBe('problem');
  });

  it('with head, reads the first maxBytes bytes of a file of any size, once', async () => {
    const heads: number[] = [];
    expect(await readRegularFile(fsOf('x'.repeat(40), 40, heads), '/x', 16, true)).toEqual({ kind: 'text', text: 'x'.repeat(16), mtimeMs: 0 });
    expect(heads).toEqual([16]);
  });

  it('a file gone between the lstat and the read is missing; another read failure is a problem', async () => {
    const gone = { ...fsOf('', 3, []), readHead: async () => Promise.reject(new PortError('NotFound', 'fs.readHead', 'gone')) } as FileSystemPort;
    expect(await readRegularFile(gone, '/x', 16)).toEqual({ kind: 'missing' });
    const denied = { ...fsOf('', 3, []), readHead: async () => Promise.reject(new PortError('PermissionDenied', 'fs.readHead', 'denied')) } as FileSystemPort;
    expect((await readRegularFile(denied, '/x', 16)).kind).toBe('problem');
  });
});
