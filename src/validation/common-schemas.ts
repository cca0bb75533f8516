import { isAbsolute } from 'node:path';
import type { z } from 'zod';
import { isAbortSignal } from '../abort.js';
import { isPortError } from '../errors.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { once, type Zod, zod as zodOnce } from '../lazy-zod.js';
import type { FileSystemPort } from '../ports/fs.js';

/** A non-empty absolute path with no NUL byte (a relative one would be resolved against the current directory). */
export function absolutePathSchema(z: Zod): z.ZodString {
  return z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .refine((p) => !p.includes('\0'), { error: 'must not contain a NUL byte' })
    .refine((p) => isAbsolute(p), { error: 'must be an absolute path (a relative one would be resolved against the current directory)' });
}

/** An optional `AbortSignal` (any realm's: checked by shape). */
export function signalSchema(z: Zod): z.ZodType<AbortSignal> {
  return z.custom<AbortSignal>((v) => isAbortSignal(v), { error: 'must be an AbortSignal' });
}

/** An environment object: string keys, string or undefined values. */
export function envSchema(z: Zod): z.ZodRecord<z.ZodString, z.ZodUnion<[z.ZodString, z.ZodUndefined]>> {
  return z.record(z.string(), z.union([z.string(), z.undefined()]), { error: 'must be an object of strings' });
}

/** Throws the {@link InvalidArgumentError} of zod's first issue, the parameter named from `root` and the issue's path. */
export function failFromZod(root: string, err: z.ZodError): never {
  const issue = err.issues[0];
  const param = [root, ...(issue?.path ?? []).map(String)].join('.');
  throw new InvalidArgumentError(param, issue?.message ?? 'invalid');
}

/** Parses `value` with `schema`, throwing the {@link InvalidArgumentError} of its first issue under `root`. */
export function parseArgument<T>(schema: z.ZodType<T>, root: string, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) failFromZod(root, parsed.error);
  return parsed.data;
}

/** Throws {@link InvalidArgumentError} for `param` unless `path` is an existing directory (followed through links). */
export async function requireDirectory(fs: FileSystemPort, param: string, path: string): Promise<void> {
  try {
    if ((await fs.stat(path)).kind !== 'dir') throw new InvalidArgumentError(param, `${path} is not a directory`);
  } catch (err) {
    if (err instanceof InvalidArgumentError) throw err;
    if (isPortError(err, 'NotFound') || isPortError(err, 'NotADirectory')) throw new InvalidArgumentError(param, `${path} does not exist`);
    throw err;
  }
}

/**
 * A checker of a function's whole argument list in one zod parse: `names[i]` names the i-th argument in the
 * {@link InvalidArgumentError} (`opts.fs` for a member), `build(z)` gives the schema of each (built on first use).
 */
export function argumentsChecker(names: readonly string[], build: (z: Zod) => readonly z.ZodType[]): (args: readonly unknown[]) => void {
  const schema = once(() => {
    const z = zodOnce();
    return z.tuple(build(z) as [z.ZodType, ...z.ZodType[]]);
  });
  return (args) => {
    const parsed = schema().safeParse(args);
    if (parsed.success) return;
    const issue = parsed.error.issues[0];
    const [index, ...rest] = issue?.path ?? [];
    const param = [names[Number(index)] ?? 'arguments', ...rest.map(String)].join('.');
    throw new InvalidArgumentError(param, issue?.message ?? 'invalid');
  };
}
