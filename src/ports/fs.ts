/**
 * What a directory entry or a stat says a path is. `symlink` only comes from `lstat` / `readdir`.
 * @public
 */
export type FileKind = 'file' | 'dir' | 'symlink' | 'other';

/**
 * The part of a stat result the library uses.
 * @public
 */
export interface FileStat {
  /** What the path is; `symlink` only from `lstat`. */
  kind: FileKind;
  /** Size in bytes. */
  size: number;
  /** Last modification time, epoch milliseconds. */
  mtimeMs: number;
  /**
   * Last status change, epoch milliseconds: moves with every write, rename, link or `utimes`, and no caller can set it
   * back (a copy that restores an mtime still moves it). Optional: a port that cannot tell leaves it out.
   */
  ctimeMs?: number;
  /** The full `st_mode` (type and permission bits). */
  mode: number;
  /** The owner's user id. */
  uid: number;
  /** The device id; with `ino`, identifies the file across renames and links. */
  dev: number;
  /** The inode number. */
  ino: number;
  /** Hard-link count (1 for a file no other name links to). */
  nlink: number;
}

/**
 * One entry of a directory listing.
 * @public
 */
export interface DirEntry {
  /** The entry's base name. */
  name: string;
  /** What the entry is, links not followed. */
  kind: FileKind;
}

/**
 * Options of {@link FileSystemPort.writeFile}.
 * @public
 */
export interface WriteOptions {
  /** Fail with `AlreadyExists` when the file exists (O_EXCL). */
  exclusive?: boolean;
  /** File mode for a new file. */
  mode?: number;
  /** fsync the file before closing it. */
  sync?: boolean;
  /** Append instead of truncating. */
  append?: boolean;
  /**
   * Write only a file of its own: open without following a link as the last component (`O_NOFOLLOW`, and `O_NONBLOCK`
   * so a FIFO never blocks the open) and check on the opened descriptor, before anything is truncated or written, that
   * it is a regular file with exactly one link. A symbolic link or a file with other hard links rejects with `Linked`,
   * a directory with `IsADirectory`, a FIFO, socket or device with `NotRegularFile`; the file is then left as it was.
   */
  noLink?: boolean;
}

/**
 * Options of {@link FileSystemPort.readFile}.
 * @public
 */
export interface ReadOptions {
  /**
   * Read only a file of its own: opened without following a link as the last component (`O_NOFOLLOW`) and checked on the
   * opened descriptor to have exactly one link; a symbolic link or a file with other hard links rejects with `Linked`.
   */
  noLink?: boolean;
}

/**
 * A directory opened once (`O_RDONLY | O_DIRECTORY | O_NOFOLLOW`); every call names an entry of THIS directory by a plain
 * name (no `/`, `.` or `..`) and never re-resolves the path it was opened by, so a rename or a swap of any directory
 * above it for a link cannot redirect the call (the way `openat`/`unlinkat` work). Every method rejects with a
 * {@link PortError}; a name that is not plain is `InvalidArgument`.
 * @public
 */
export interface DirHandle {
  /** The path the directory was opened by (for reports and records; calls do not go through it when `anchored`). */
  readonly path: string;
  /**
   * True when calls go through the open descriptor itself (Linux `/proc/self/fd`); false where the platform lacks that:
   * each call then checks device and inode of every directory from the first one opened down to this one before and
   * after it, and rejects with `Changed` at any difference (a swap between the check and the call is not excluded).
   */
  readonly anchored: boolean;
  /** fstat of the opened directory (its `dev`/`ino` are those of what was opened, whatever the path names now). */
  stat(): Promise<FileStat>;
  /** Entries of the opened directory (not `.`/`..`); a link is reported as `symlink`. */
  readdir(): Promise<DirEntry[]>;
  /** lstat of the entry `name` (a link is `symlink`). */
  lstat(name: string): Promise<FileStat>;
  /** Opens the entry `name` as a directory without following a link: a link or a non-directory rejects with `NotADirectory`. */
  openDir(name: string): Promise<DirHandle>;
  /** Removes the file or link `name` (never a directory: `IsADirectory`). */
  unlink(name: string): Promise<void>;
  /** Removes the empty directory `name` (a link: `NotADirectory`; not empty: `NotEmpty`). */
  rmdir(name: string): Promise<void>;
  /** Closes the descriptor; further calls reject. Never rejects itself. */
  close(): Promise<void>;
}

/**
 * Every filesystem effect the library makes. Only primitives: conveniences
 * (recursive confined removal, atomic replace, locks) are built on top, so a
 * harness that wraps this port sees every single mutation.
 *
 * Every method rejects with a {@link PortError} whose code is one of {@link PortErrorCode}.
 * @public
 */
export interface FileSystemPort {
  /** Entries of a directory (not `.`/`..`), in no particular order; a link is reported as `symlink`. */
  readdir(path: string): Promise<DirEntry[]>;
  /** Stat following links. */
  stat(path: string): Promise<FileStat>;
  /** Stat of the path itself (a link is `symlink`). */
  lstat(path: string): Promise<FileStat>;
  /** The canonical absolute path, links resolved. */
  realpath(path: string): Promise<string>;
  /** The target text of a symbolic link. */
  readlink(path: string): Promise<string>;
  /**
   * Opens a directory once, never following a link as the last component (`NotADirectory` for a link or a file); its
   * handle lists and removes entries relative to what was opened. See {@link DirHandle}.
   */
  openDir(path: string): Promise<DirHandle>;
  /**
   * The whole file; a non-regular file (FIFO, socket, device, directory) is refused, never opened for reading. With
   * `noLink`, a link (symbolic or hard) is refused too (see {@link ReadOptions.noLink}).
   */
  readFile(path: string, opts?: ReadOptions): Promise<Uint8Array>;
  /** The whole file as UTF-8; a non-regular file is refused like {@link FileSystemPort.readFile}. */
  readText(path: string): Promise<string>;
  /** At most `maxBytes` from the start of the file (never reads more); a non-regular file is refused like {@link FileSystemPort.readFile}. */
  readHead(path: string, maxBytes: number): Promise<Uint8Array>;
  /** Writes (or appends to) a file; with `noLink`, never through a link (see {@link WriteOptions.noLink}). */
  writeFile(path: string, data: string | Uint8Array, opts?: WriteOptions): Promise<void>;
  /** Atomic rename within one filesystem; replaces `to`. */
  rename(from: string, to: string): Promise<void>;
  /** Removes a file or a symbolic link (never a directory). */
  unlink(path: string): Promise<void>;
  /** Removes an empty directory. */
  rmdir(path: string): Promise<void>;
  /** Creates a directory. */
  mkdir(path: string, opts?: { recursive?: boolean; mode?: number }): Promise<void>;
  /** Creates a unique directory whose name starts with `prefix` (an absolute path prefix). */
  mkdtemp(prefix: string): Promise<string>;
  /** Copies one file's bytes. */
  copyFile(from: string, to: string): Promise<void>;
  /** Creates a symbolic link at `path` pointing to `target`. */
  symlink(target: string, path: string): Promise<void>;
  /** fsync of a directory, so a rename in it is durable. */
  fsyncDir(path: string): Promise<void>;
  /** The system's temporary directory. */
  tmpdir(): string;
}
