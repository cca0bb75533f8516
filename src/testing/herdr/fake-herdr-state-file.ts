import * as fs from 'node:fs';
import type { FakeHerdrStoreIo } from './fake-herdr-core-store.js';
import { makeFakeHerdrStoreIo } from './fake-herdr-store-io.js';
import { createFakeHerdrState, editFakeHerdrState, fakeHerdrCore, type FakeHerdrEditor } from './fake-herdr-editor.js';
import type { FakeHerdrState } from './fake-herdr-types.js';

/**
 * One line of the fake executable's spy log: the argv it was called with (binary excluded), its pid, and when (epoch ms).
 * @public
 */
export interface FakeHerdrSpyEntry {
  /** The arguments, the binary excluded. */
  argv: string[];
  /** The executable's pid for that call. */
  pid: number;
  /** When it was called, epoch ms. */
  ts: number;
}

// The same lock and atomic replace the executable uses, from this process.
const io: FakeHerdrStoreIo = makeFakeHerdrStoreIo(fs);

/**
 * Writes a fake herdr state file (under its lock): the given state, or a fresh one changed by `seed`; returns what was written.
 * @public
 */
export async function seedFakeHerdrState(statePath: string, seed?: FakeHerdrState | ((editor: FakeHerdrEditor) => void)): Promise<FakeHerdrState> {
  let state: FakeHerdrState;
  if (typeof seed === 'function') {
    state = createFakeHerdrState();
    seed(editFakeHerdrState(state));
  } else {
    state = seed ?? createFakeHerdrState();
  }
  fakeHerdrCore().store.update(io, statePath, () => ({ state, result: undefined }));
  return state;
}

/**
 * Reads a fake herdr state file (a missing file reads as a machine with no server).
 * @public
 */
export async function readFakeHerdrState(statePath: string): Promise<FakeHerdrState> {
  return fakeHerdrCore().store.withLock(io, statePath, () => fakeHerdrCore().store.read(io, statePath));
}

/**
 * Changes a fake herdr state file under its lock, as running fake executables see it; returns what `fn` returned.
 * @public
 */
export async function updateFakeHerdrState<T>(statePath: string, fn: (editor: FakeHerdrEditor) => T): Promise<T> {
  return fakeHerdrCore().store.update(io, statePath, (state) => ({ state, result: fn(editFakeHerdrState(state)) }));
}

/**
 * The calls logged by a fake executable installed with a spy log, in order (none when the log does not exist).
 * @public
 */
export async function readFakeHerdrSpyLog(spyLogPath: string): Promise<FakeHerdrSpyEntry[]> {
  let text: string;
  try {
    text = await fs.promises.readFile(spyLogPath, 'utf8');
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return [];
    throw err;
  }
  return text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as FakeHerdrSpyEntry);
}
