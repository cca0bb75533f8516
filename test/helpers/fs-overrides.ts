import type { FileSystemPort } from '../../src/ports/fs.js';

/** A port that answers some methods itself and forwards the rest to `inner` (for read faults RecordingFileSystem does not inject). */
export function withOverrides(inner: FileSystemPort, overrides: Partial<FileSystemPort>): FileSystemPort {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const own = (overrides as Record<PropertyKey, unknown>)[prop];
      if (own !== undefined) return own;
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
