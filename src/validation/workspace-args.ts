import type { z } from 'zod';
import { isPortError } from '../errors.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { lazySchema, type Zod } from '../lazy-zod.js';
import type { FileSystemPort } from '../ports/fs.js';
import { absolutePathSchema, envSchema, parseArgument } from './common-schemas.js';

/** A number of milliseconds: finite, not negative (NaN, Infinity and negatives are refused). */
export function msSchema(z: Zod): z.ZodNumber {
  return z.number({ error: 'must be a finite number of milliseconds' }).min(0, { error: 'must not be negative' });
}

/** A non-empty string with no NUL byte (a name, an id, a token). */
export function nameSchema(z: Zod): z.ZodString {
  return z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .refine((s) => !s.includes('\0'), { error: 'must not contain a NUL byte' });
}

/** A function (a callback). */
export function functionSchema(z: Zod): z.ZodType<(...args: never[]) => unknown> {
  return z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', { error: 'must be a function' });
}

/** An object of any shape (ports, a registry, a gate instance): only `typeof object` and not null is checked. */
export function objectSchema(z: Zod): z.ZodType<object> {
  return z.custom<object>((v) => typeof v === 'object' && v !== null, { error: 'must be an object' });
}

/** An options object with the given optional members; other members pass (only the listed ones are checked). */
export function optionsSchema(z: Zod, shape: Record<string, z.ZodType>): z.ZodType<Record<string, unknown>> {
  const optional = Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, s.optional()]));
  return z.object(optional, { error: 'must be an object' }).loose();
}

/** The option members most classes share: `ports`, `home`, `env`. */
export function commonOptionShape(z: Zod): Record<string, z.ZodType> {
  return { ports: objectSchema(z), home: absolutePathSchema(z), env: envSchema(z) };
}

const workspacePath = lazySchema((z: Zod) => absolutePathSchema(z));
const nameArg = lazySchema((z: Zod) => nameSchema(z));

/** Checks a name or id argument (a non-empty string without NUL); throws {@link InvalidArgumentError} for `param` otherwise. */
export function checkNameArg(param: string, value: unknown): string {
  return parseArgument(nameArg, param, value);
}

/**
 * Checks (synchronously, no fs work) that `value` is a usable path argument: a non-empty absolute string with no NUL
 * byte; throws {@link InvalidArgumentError} for `param` otherwise.
 */
export function checkPathArg(param: string, value: unknown): string {
  return parseArgument(workspacePath, param, value);
}

/**
 * Checks an options argument (undefined is `{}`) against `schema`, returning it as given (class instances in it are
 * kept, not copied); throws {@link InvalidArgumentError} naming `param.<member>` otherwise.
 */
export function checkOptions<T>(schema: z.ZodType, param: string, value: T | undefined): T | Record<string, never> {
  if (value === undefined) return {};
  parseArgument(schema, param, value);
  return value;
}

/**
 * A once-per-instance check that a workspace directory exists (one stat, at the first call that needs it; a success is
 * remembered, a failure is not, so a workspace made afterwards is accepted). `optIn` names the option that lets a missing
 * one through (said in the error); with `create` true the caller opted in and a missing one passes.
 */
export function workspaceExists(fs: FileSystemPort, param: string, path: string, opts: { create?: boolean; optIn?: string } = {}): () => Promise<void> {
  const hint = opts.optIn === undefined ? '' : ` (pass { ${opts.optIn}: true } to create it)`;
  let ok: Promise<void> | null = null;
  const check = async (): Promise<void> => {
    let kind: string;
    try {
      kind = (await fs.stat(path)).kind;
    } catch (err) {
      if (isPortError(err, 'NotFound') || isPortError(err, 'NotADirectory')) {
        if (opts.create === true) return;
        throw new InvalidArgumentError(param, `${path} does not exist${hint}`);
      }
      throw err;
    }
    if (kind !== 'dir') throw new InvalidArgumentError(param, `${path} is not a directory`);
  };
  return () => {
    ok ??= check().catch((err: unknown) => {
      ok = null;
      throw err;
    });
    return ok;
  };
}
