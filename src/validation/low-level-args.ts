import type { z } from 'zod';
import type { Zod } from '../lazy-zod.js';
import { absolutePathSchema, argumentsChecker } from './common-schemas.js';
import { functionSchema, nameSchema, objectSchema } from './workspace-args.js';

// One checker per path-taking low-level export: its whole argument list in one zod parse, before any effect. A path that
// came from a store (a removal candidate, a last name) is only type-checked: a bad one stays the function's value.

const str = (z: Zod): z.ZodString => z.string({ error: 'must be a string' });
const fsOptions = (z: Zod): z.ZodType => z.object({ fs: objectSchema(z) }, { error: 'must be an object' }).loose();
// A wait: a number, not NaN, not negative (Infinity allowed: it waits until aborted).
const waitMs = (z: Zod): z.ZodType =>
  z.custom<number>((v) => typeof v === 'number' && !Number.isNaN(v) && v >= 0, { error: 'must be a number of milliseconds, not NaN nor negative' }).optional();
const lockOptions = (z: Zod): z.ZodType =>
  z.object({ clock: objectSchema(z), timeoutMs: waitMs(z), pollMs: waitMs(z), signal: objectSchema(z).optional(), random: functionSchema(z).optional() }, { error: 'must be an object' }).loose();
const registryState = (z: Zod): z.ZodType => z.object({ orchestrator_uuids: z.array(str(z), { error: 'must be an array of strings' }) }, { error: 'must be an object' }).loose();
/** A lifecycle context's schema (the checks of the lifecycle's functions share it). */
export const lifecycleContext = (z: Zod): z.ZodType =>
  z
    .object(
      { workspace: absolutePathSchema(z), home: absolutePathSchema(z), ports: objectSchema(z), registry: objectSchema(z), purge: objectSchema(z), gate: objectSchema(z), timeouts: objectSchema(z) },
      { error: 'must be an object' },
    )
    .loose();

/** `openReadonly(dbPath, opts)`. */
export const checkOpenReadonly = argumentsChecker(['dbPath', 'opts'], (z) => [absolutePathSchema(z), fsOptions(z)]);
/** `withReadonlyDb(dbPath, opts, fn)`. */
export const checkWithReadonlyDb = argumentsChecker(['dbPath', 'opts', 'fn'], (z) => [absolutePathSchema(z), fsOptions(z), functionSchema(z)]);
/** `detectWalState(fs, dbPath)` and `dbWriteRefusal(fs, dbPath)`. */
export const checkFsDbPath = argumentsChecker(['fs', 'dbPath'], (z) => [objectSchema(z), absolutePathSchema(z)]);
/** `dbRowsNaming(dbPath, id, columns, idTables, opts)`. */
export const checkDbRowsNaming = argumentsChecker(['dbPath', 'id', 'columns', 'idTables', 'opts'], (z) => [
  absolutePathSchema(z),
  str(z),
  z.array(str(z), { error: 'must be an array of strings' }),
  z.array(z.union([str(z), z.object({ table: str(z), column: str(z) }).loose()], { error: 'must be a table name or { table, column }' }), { error: 'must be an array' }),
  fsOptions(z),
]);
/** `writeFileAtomic(fs, path, data, opts)`. */
export const checkWriteFileAtomic = argumentsChecker(['fs', 'path', 'data', 'opts'], (z) => [
  objectSchema(z),
  absolutePathSchema(z),
  z.custom<string | Uint8Array>((v) => typeof v === 'string' || v instanceof Uint8Array, { error: 'must be a string or a Uint8Array' }),
  z.object({ mode: z.number({ error: 'must be a file mode (an integer)' }).int().min(0).optional() }, { error: 'must be an object' }).loose().optional(),
]);
/** `tryLock(lockPath)`. */
export const checkTryLock = argumentsChecker(['lockPath'], (z) => [absolutePathSchema(z)]);
/** `acquireLock(lockPath, opts)`. */
export const checkAcquireLock = argumentsChecker(['lockPath', 'opts'], (z) => [absolutePathSchema(z), lockOptions(z)]);
/** `withLock(lockPath, opts, fn)`. */
export const checkWithLock = argumentsChecker(['lockPath', 'opts', 'fn'], (z) => [absolutePathSchema(z), lockOptions(z), functionSchema(z)]);
/** `removeConfined(fs, root, candidate)` and `confinedCheck(fs, root, candidate)`: a bad candidate stays a value. */
export const checkConfined = argumentsChecker(['fs', 'root', 'candidate'], (z) => [objectSchema(z), absolutePathSchema(z), str(z)]);
/** `removeDirKeepingLast(fs, root, dir, lastName)`: a bad dir or last name stays a value. */
export const checkRemoveDirKeepingLast = argumentsChecker(['fs', 'root', 'dir', 'lastName'], (z) => [objectSchema(z), absolutePathSchema(z), str(z), str(z)]);
/** `cleanStaleTemps(fs, dir, base, opts)`. */
export const checkCleanStaleTemps = argumentsChecker(['fs', 'dir', 'base', 'opts'], (z) => [
  objectSchema(z),
  absolutePathSchema(z),
  nameSchema(z),
  z.object({ modifiedBeforeMs: z.number({ error: 'must be a finite number (epoch ms)' }).optional() }, { error: 'must be an object' }).loose().optional(),
]);
/** `registryPaths(workspace)`. */
export const checkRegistryPaths = argumentsChecker(['workspace'], (z) => [absolutePathSchema(z)]);
/** `idOrderPaths(workspace, realCwd)`. */
export const checkIdOrderPaths = argumentsChecker(['workspace', 'realCwd'], (z) => [absolutePathSchema(z), absolutePathSchema(z)]);
/** `artifactPath(a)`: a rows artifact with its `db`, or one with a `path`. */
export const checkArtifactPath = argumentsChecker(['a'], (z) => [
  z.custom<object>(
    (v) => typeof v === 'object' && v !== null && typeof (v as { kind?: unknown }).kind === 'string' && typeof (v as Record<string, unknown>)[(v as { kind: string }).kind === 'rows' ? 'db' : 'path'] === 'string',
    { error: 'must be an artifact (a rows one with its db, or one with a path)' },
  ),
]);
/** `readJobRecord(fs, registryDir, jobId)`. */
export const checkReadJobRecord = argumentsChecker(['fs', 'registryDir', 'jobId'], (z) => [objectSchema(z), absolutePathSchema(z), str(z)]);
/** `listJobIds(fs, registryDir)`. */
export const checkListJobIds = argumentsChecker(['fs', 'registryDir'], (z) => [objectSchema(z), absolutePathSchema(z)]);
/** `createSession(c, input, opts)`. */
export const checkCreateSession = argumentsChecker(['c', 'input', 'opts'], (z) => [lifecycleContext(z), objectSchema(z), objectSchema(z).optional()]);
/** `stopSession(c, name, opts)`. */
export const checkStopSession = argumentsChecker(['c', 'name', 'opts'], (z) => [lifecycleContext(z), nameSchema(z), objectSchema(z).optional()]);
/** `listOrchestrators(state)`. */
export const checkListOrchestrators = argumentsChecker(['state'], (z) => [registryState(z)]);
/** `addOrchestrator(draft, id, opts)` and `removeOrchestrator(draft, id, opts)`: a malformed id string stays what it was. */
export const checkOrchestratorEdit = argumentsChecker(['draft', 'id', 'opts'], (z) => [registryState(z), str(z), objectSchema(z).optional()]);
