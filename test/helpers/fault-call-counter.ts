// A FileSystemPort that counts every call (reads included) and records every mutation, for "no fs call at all" checks.
import { NodeFileSystem } from '../../src/node/node-fs.js';
import type { FileSystemPort } from '../../src/ports/fs.js';
import { RecordingFileSystem } from '../../src/testing/fs/recording-file-system.js';

/** The counting port and what it saw. */
export interface CallCounter {
  fs: FileSystemPort;
  /** Every method called, in order (`tmpdir` included). */
  calls: string[];
  recording: RecordingFileSystem;
}

/** A fresh counter over the real filesystem. */
export function countingFs(): CallCounter {
  const recording = new RecordingFileSystem(new NodeFileSystem());
  const calls: string[] = [];
  const fs = new Proxy(recording, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || prop === 'constructor') return value;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as FileSystemPort;
  return { fs, calls, recording };
}
