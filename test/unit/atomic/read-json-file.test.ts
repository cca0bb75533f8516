import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonFile } from '../../../src/atomic/read-json-file.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';

describe('readJsonFile', () => {
  const fs = new NodeFileSystem();
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mam-read-json-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const notJson = (cause: unknown): Error => new Error('bad', { cause });

  it('gives the parsed body, a JSON null as a body, and null only when the file is missing', async () => {
    await writeFile(join(dir, 'a.json'), '{"x":[1,2]}');
    await writeFile(join(dir, 'null.json'), 'null');
    expect(await readJsonFile(fs, join(dir, 'a.json'), notJson)).toEqual({ body: { x: [1, 2] } });
    expect(await readJsonFile(fs, join(dir, 'null.json'), notJson)).toEqual({ body: null });
    expect(await readJsonFile(fs, join(dir, 'missing.json'), notJson)).toBeNull();
  });

  it("throws the caller's fault, with the parse error as its cause, for text that is not JSON", async () => {
    await writeFile(join(dir, 'bad.json'), '{"x":');
    await expect(readJsonFile(fs, join(dir, 'bad.json'), notJson)).rejects.toMatchObject({ message: 'bad', cause: expect.any(SyntaxError) });
  });

  it('passes on any other read fault (a directory is no state file)', async () => {
    await mkdir(join(dir, 'sub.json'));
    await expect(readJsonFile(fs, join(dir, 'sub.json'), notJson)).rejects.not.toMatchObject({ message: 'bad' });
  });
});
