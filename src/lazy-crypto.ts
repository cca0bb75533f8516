import { createRequire } from 'node:module';
import type * as Crypto from 'node:crypto';

// node:crypto is loaded (synchronously: a builtin) the first time an id or a hash is made, not when @mam/core is
// imported: it is one of the costlier builtins to load, and most imports never mint an id.
let loaded: typeof Crypto | undefined;

/** Node's `crypto` module, loaded on the first call. */
export function nodeCrypto(): typeof Crypto {
  loaded ??= createRequire(import.meta.url)('node:crypto') as typeof Crypto;
  return loaded;
}
