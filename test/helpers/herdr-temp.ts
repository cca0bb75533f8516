import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temp dir and its removal. */
export async function herdrTempDir(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `mam-herdr-${prefix}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
