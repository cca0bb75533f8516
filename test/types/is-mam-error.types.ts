// Compile-time checks (`npx tsc --noEmit` reads this file; vitest does not run it): each `@ts-expect-error` line must
// fail to compile, or tsc reports the directive as unused.
import { isMamError, type MamError, type MamErrorCode, type MamErrorDataMap } from '../../src/errors.js';
import type { InvalidArgumentError } from '../../src/invalid-argument-error.js';
import type { RegistryIdClaimedError } from '../../src/registry/registry-id-claimed-error.js';
import type { RegistryFileRefusedError } from '../../src/registry/registry-file-refused-error.js';
import type { LockTimeoutError } from '../../src/atomic/lock-timeout-error.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const yes = <T extends true>(): T | undefined => undefined;

// Every code has its data in the map, and the map names no other code.
yes<Equal<keyof MamErrorDataMap, MamErrorCode>>();
// The classes' own data types are the map's.
yes<Equal<RegistryIdClaimedError['data'], Readonly<MamErrorDataMap['REGISTRY_ID_CLAIMED']>>>();
yes<Equal<RegistryFileRefusedError['data'], Readonly<MamErrorDataMap['REGISTRY_FILE_REFUSED']>>>();
yes<Equal<InvalidArgumentError['data'], Readonly<MamErrorDataMap['INVALID_ARGUMENT']>>>();
yes<Equal<LockTimeoutError['data'], Readonly<MamErrorDataMap['LOCK_TIMEOUT']>>>();

// A narrowed error is still a MamError where one is expected.
export function stillMamError(e: unknown): MamError | null {
  if (isMamError(e, 'REGISTRY_FILE_REFUSED')) return e;
  if (isMamError(e, 'NotFound')) return e;
  if (isMamError(e, 'REGISTRY_ID_CLAIMED')) return e;
  return null;
}

export function narrow(e: unknown): string {
  if (isMamError(e, 'REGISTRY_ID_CLAIMED')) {
    const by: string = e.data.claimedBy;
    // @ts-expect-error data is read-only
    e.data.row = 'x';
    // @ts-expect-error no such field on this code's data
    return e.data.param;
    void by;
  }
  if (isMamError(e, 'INVALID_ARGUMENT')) return e.data.param;
  if (isMamError(e, 'NotFound')) return e.data.op;
  // @ts-expect-error not a code of the package
  if (isMamError(e, 'NOT_A_CODE')) return '';
  if (isMamError(e)) {
    // @ts-expect-error without a code, data is only a record
    const p: string = e.data.param;
    return p;
  }
  return '';
}
