import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { PortError, type PortErrorCode } from '../../src/errors.js';

/** A fresh real temp dir (its canonical path, so /tmp → /private/tmp does not matter) and a disposer. */
export async function makeTempDir(tag = 'mam-fs-'): Promise<{ dir: string; dispose: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), tag)));
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** Asserts that `promise` rejects with a PortError of `code`, and returns it. */
export async function expectPortError(promise: Promise<unknown>, code: PortErrorCode): Promise<PortError> {
  let caught: unknown;
  try {
    await promise;
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected a PortError ${code}`).toBeInstanceOf(PortError);
  const err = caught as PortError;
  expect(err.code).toBe(code);
  return err;
}
