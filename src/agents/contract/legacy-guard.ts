// Temporary: the argument check of the adapter classes not yet written as definitions (removed with BaseAdapter).
import type { FileSystemPort } from '../../ports/fs.js';
import type { AgentReads } from './agent-definition.js';
import { type ArgKind, methodGuard } from './method-guard.js';

const METHODS: Readonly<Record<string, readonly ArgKind[]>> = {
  discover: ['ctx'],
  verifyArtifact: ['id', 'ctx', 'mode'],
  currentId: ['id', 'ctx'],
  captureActiveSessionId: ['row', 'ctx'],
  conversationInUse: ['id', 'ctx'],
  inUseHolders: ['id', 'ctx'],
  inUseHints: ['id', 'ctx'],
  planPurge: ['id', 'ctx'],
  purgeArtifacts: ['id', 'ctx'],
  residualArtifacts: ['id', 'ctx'],
  mentions: ['id', 'ctx'],
  hasArtifacts: ['id', 'ctx'],
  owns: ['id', 'ctx'],
  remainsBelonging: ['id', 'ctx'],
  verifyMany: ['queries', 'ctx'],
  purgeNotesOf: ['id', 'ctx'],
  authOk: ['ctx'],
  survey: ['ctx'],
  preflight: ['ctx'],
  inspect: ['ctx'],
};

/** Puts the argument check in front of every public method of a legacy adapter instance. */
export function guardAdapterMethods(adapter: object, fs: () => FileSystemPort, plausible: (id: string) => boolean): void {
  const flag = (n: string): boolean => Reflect.get(adapter, n) === true;
  // The flags are class fields, set after the base constructor ran: read them at the first call.
  let guard: ReturnType<typeof methodGuard> | undefined;
  const reads = (): AgentReads => ({ kind: flag('storeReadsOnly') ? 'files' : flag('spawnsAfterHomeCheck') ? 'files-then-spawn' : 'any', provesHome: flag('provesHome') });
  const g = (): ReturnType<typeof methodGuard> => (guard ??= methodGuard(fs, plausible, reads()));
  for (const [name, kinds] of Object.entries(METHODS)) {
    if (typeof Reflect.get(adapter, name) !== 'function') continue;
    const impl = (args: unknown[]): unknown => Reflect.apply(Reflect.get(Object.getPrototypeOf(adapter) as object, name, adapter) as (...a: unknown[]) => unknown, adapter, args);
    const value =
      name === 'inUseHints'
        ? (...args: unknown[]): unknown => g().callSync(kinds, args, impl)
        : (...args: unknown[]): Promise<unknown> => g().call(name, kinds, args, async (a) => impl(a));
    Object.defineProperty(adapter, name, { value, writable: true, configurable: true, enumerable: false });
  }
}
