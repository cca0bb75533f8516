import { MamError } from '../errors.js';
import type { RegistryFileProblem, RegistryFileRefusedData } from '../error-data.js';

export type { RegistryFileProblem, RegistryFileRefusedData } from '../error-data.js';

const WHY: Readonly<Record<RegistryFileProblem, string>> = {
  symlink: 'it is a symbolic link',
  'hard-link': 'it has other hard links (a write would change another file too)',
  directory: 'it is a directory, not a regular file',
  'not-regular': 'it is not a regular file (a FIFO, socket or device)',
  'not-a-directory': 'it is not a directory',
  'foreign-database': "it is a SQLite database whose tables are not the registry mirror's",
  moved: 'it changed while being opened (a link or another file was swapped in)',
  unchecked: 'it could not be checked',
};

/**
 * A registry name (`.mam/` itself, the YAML, its temp, the SQLite mirror or a sidecar, the lock) is not the registry's
 * own file, so nothing was written through it; code `REGISTRY_FILE_REFUSED`. The registry only ever writes regular files
 * with one link inside a real `.mam/` directory: remove or replace the file named by hand, then run again.
 * @public
 */
export class RegistryFileRefusedError extends MamError {
  /** Always `REGISTRY_FILE_REFUSED`. */
  declare readonly code: 'REGISTRY_FILE_REFUSED';
  /** The path and the problem. */
  declare readonly data: Readonly<RegistryFileRefusedData>;

  /** Builds the refusal of `path` for `problem`; `detail` (one line) is appended to the message when given. */
  constructor(path: string, problem: RegistryFileProblem, options?: { detail?: string; cause?: unknown }) {
    const detail = options?.detail === undefined || options.detail === '' ? '' : ` (${options.detail.replace(/\s+/g, ' ')})`;
    super(
      'REGISTRY_FILE_REFUSED',
      `refusing the session registry file ${path}: ${WHY[problem]}${detail}; nothing was written: the registry writes only its own regular files inside a real .mam directory, so remove or replace it by hand`,
      { path, problem },
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
  }
}
