import { NodeFileSystem } from '../../src/node/node-fs.js';
import type { FileSystemPort } from '../../src/ports/fs.js';

/** One call made through a {@link RecordingFs}: the method and its path arguments. */
export interface FsCall {
  op: string;
  args: string[];
}

const READS = new Set(['readdir', 'stat', 'lstat', 'realpath', 'readlink', 'readFile', 'readText', 'readHead', 'tmpdir']);

/** The real Node filesystem port, recording every call so a test can check which mutations were made, and where. */
export class RecordingFs {
  readonly calls: FsCall[] = [];
  /** The directories `mkdtemp` made. */
  readonly tempDirs: string[] = [];
  readonly port: FileSystemPort;

  constructor(inner: FileSystemPort = new NodeFileSystem()) {
    this.port = new Proxy(inner, {
      get: (target, prop, receiver) => {
        const value: unknown = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          this.calls.push({ op: String(prop), args: args.filter((a): a is string => typeof a === 'string') });
          const result = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (prop === 'mkdtemp') return (result as Promise<string>).then((dir) => (this.tempDirs.push(dir), dir));
          return result;
        };
      },
    });
  }

  /** The mutations made outside the directories `mkdtemp` made (which must be none for a reader). */
  mutationsOutsideTempDirs(): FsCall[] {
    return this.mutations().filter((c) => {
      if (c.op === 'mkdtemp') return false;
      const target = c.op === 'copyFile' || c.op === 'rename' || c.op === 'symlink' ? c.args[1] : c.args[0];
      return !this.tempDirs.some((d) => target === d || target?.startsWith(`${d}/`) === true);
    });
  }

  /** The calls that change the filesystem. */
  mutations(): FsCall[] {
    return this.calls.filter((c) => !READS.has(c.op));
  }
}
