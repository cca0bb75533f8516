import type { HomeDiscoveryContext } from '../agents/types.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { lazySchema, type Zod } from '../lazy-zod.js';
import type { FileSystemPort } from '../ports/fs.js';
import { isAbsolute } from 'node:path';
import { isAbortSignal } from '../abort.js';
import { absolutePathSchema, envSchema, parseArgument, requireDirectory, signalSchema } from './common-schemas.js';
import { homeCheckNow } from './home-proof.js';

// Built on first use (zod loads then, not when the package is imported). Fields it does not name are kept.
/** The schema of a discovery context (built on first use). */
export const contextSchema = lazySchema((z: Zod) => {
  const absolutePath = absolutePathSchema(z);
  return z.looseObject(
    {
      workspace: absolutePath,
      home: absolutePath.optional(),
      homeDir: absolutePath.optional(),
      env: envSchema(z).optional(),
      epoch: z.number({ error: 'must be a number (epoch seconds)' }).optional(),
      panePid: z.number({ error: 'must be a process id' }).int({ error: 'must be an integer process id' }).optional(),
      signal: signalSchema(z).optional(),
      siblingClaimedIds: z.array(z.string({ error: 'must be a string' }), { error: 'must be a list of ids' }).readonly().optional(),
    },
    { error: 'must be an object ({ workspace, home })' },
  );
});

const absolute = (p: unknown): boolean => typeof p === 'string' && p.length > 0 && !p.includes('\0') && isAbsolute(p);
const optional = (v: unknown, ok: (v: unknown) => boolean): boolean => v === undefined || ok(v);
const plainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && Object.getOwnPropertySymbols(v).length === 0;
};
const env = (v: unknown): boolean => plainObject(v) && Object.values(v).every((x) => x === undefined || typeof x === 'string');
const ids = (v: unknown): boolean => Array.isArray(v) && v.every((x) => typeof x === 'string');

/**
 * The common well-formed context checked by hand, without zod: a plain object (no symbol keys) whose named fields are
 * plainly of their types (the schema's rules, on the values it accepts). Anything else — including every bad value —
 * goes to the schema, which accepts or names the fault; this never accepts what the schema refuses.
 */
export function plainlyValidContext(v: unknown): v is { home?: string; homeDir?: string } {
  if (!plainObject(v)) return false;
  return (
    absolute(v['workspace']) &&
    optional(v['home'], absolute) &&
    optional(v['homeDir'], absolute) &&
    optional(v['env'], env) &&
    optional(v['epoch'], Number.isFinite) &&
    optional(v['panePid'], Number.isSafeInteger) &&
    optional(v['siblingClaimedIds'], ids) &&
    optional(v['signal'], isAbortSignal)
  );
}

/** Contexts {@link requireDiscoveryContext} returned: one `home`, no `homeDir`, every path checked, the home a directory. */
const checked = new WeakSet<object>();
/** Normalised contexts whose home's stat is still running (a method or a batch reads alongside it). */
const pendingHome = new WeakMap<object, Promise<void>>();

/** A checked context and the parameter its home came from (`ctx.home`, or `ctx.homeDir` for the former spelling). */
export interface CheckedContext {
  /** The context, `home` set and `homeDir` gone. */
  ctx: HomeDiscoveryContext;
  /** `ctx.home` or `ctx.homeDir`: the parameter an error about the home names. */
  homeParam: string;
  /** True when the context is one {@link requireDiscoveryContext} returned (its home was checked too). */
  known: boolean;
  /** The stat of the home still running for a context {@link startHomeCheck} returned: no second stat is needed. */
  pending?: Promise<void>;
}

/**
 * Checks a discovery context's shape (absolute, non-empty, NUL-free `workspace` and home; `env`, `epoch`, `panePid`,
 * `siblingClaimedIds` of their types) and normalises `homeDir` (the former name) to `home`: exactly one of the two, or
 * both equal. Throws {@link InvalidArgumentError} naming the field; reads nothing from disk.
 */
export function checkDiscoveryContext(value: unknown, root = 'ctx'): CheckedContext {
  if (typeof value === 'object' && value !== null && checked.has(value)) return { ctx: value as HomeDiscoveryContext, homeParam: `${root}.home`, known: true };
  const pending = typeof value === 'object' && value !== null ? (pendingHome.get(value) ?? homeCheckNow(value as HomeDiscoveryContext)) : undefined;
  if (pending !== undefined) return { ctx: value as HomeDiscoveryContext, homeParam: `${root}.home`, known: false, pending };
  const { home, homeDir } = plainlyValidContext(value) ? value : parseArgument(contextSchema, root, value);
  if (home === undefined && homeDir === undefined) throw new InvalidArgumentError(`${root}.home`, 'is required: the absolute path of the home directory');
  if (home !== undefined && homeDir !== undefined && home !== homeDir) {
    throw new InvalidArgumentError(`${root}.homeDir`, `differs from ${root}.home (${homeDir} vs ${home}); give home only (homeDir is its former name)`);
  }
  const { homeDir: _former, ...rest } = value as HomeDiscoveryContext;
  const ctx: HomeDiscoveryContext = { ...rest, home: home ?? (homeDir as string) };
  return { ctx, homeParam: home === undefined ? `${root}.homeDir` : `${root}.home`, known: false };
}

/** Records `ctx` (a context {@link checkDiscoveryContext} returned, its home found a directory) as checked. */
export function markContextChecked(ctx: HomeDiscoveryContext): void {
  checked.add(ctx);
}

/** Records that the stat of `ctx`'s home is `check`, still running while a read-only method reads: {@link homeChecked} waits for it. */
export function notePendingHomeCheck(ctx: HomeDiscoveryContext, check: Promise<void>): void {
  pendingHome.set(ctx, check);
  // Once settled it is no longer pending: a good home is marked checked, a bad one is looked at again if asked again.
  check.then(
    () => pendingHome.delete(ctx),
    () => pendingHome.delete(ctx),
  );
}

/**
 * Settles once `ctx`'s home is known a directory, and rejects ({@link InvalidArgumentError}) when it is not: at once for
 * a checked context, the running check of one being checked, else one stat through `fs` — what a method that reads
 * alongside the argument check awaits before anything that must never run for a bad home (a spawn).
 */
export async function homeChecked(fs: FileSystemPort, ctx: HomeDiscoveryContext): Promise<void> {
  if (checked.has(ctx)) return;
  const pending = pendingHome.get(ctx) ?? homeCheckNow(ctx);
  if (pending !== undefined) return pending;
  await requireDirectory(fs, 'ctx.home', ctx.home);
}

const workspaceSchema = lazySchema((z: Zod) => absolutePathSchema(z));

/**
 * A checked context with another workspace, itself checked (no second parse of the rest, no second stat of the home: both
 * are the checked context's): what a batch hands each query's check. `ctx` not yet checked gives the plain copy, which
 * the method's own check then parses whole. Throws {@link InvalidArgumentError} for a workspace that is not an absolute,
 * NUL-free path.
 */
export function withWorkspace(ctx: HomeDiscoveryContext, workspace: string): HomeDiscoveryContext {
  const out: HomeDiscoveryContext = { ...ctx, workspace };
  if (!checked.has(ctx)) return out;
  parseArgument(workspaceSchema, 'workspace', workspace);
  checked.add(out);
  return out;
}

/**
 * {@link checkDiscoveryContext} now, and the stat of the home started: the context (marked checked once the stat finds a
 * directory) and that check, which rejects ({@link InvalidArgumentError}) for a bad home. Adapter methods handed the
 * context wait for the check as their own (reading alongside it where they may); the caller must await it before answering.
 */
export function startHomeCheck(fs: FileSystemPort, value: unknown, root = 'ctx'): { ctx: HomeDiscoveryContext; check: Promise<void> } {
  const c = checkDiscoveryContext(value, root);
  if (c.known) return { ctx: c.ctx, check: Promise.resolve() };
  if (c.pending !== undefined) return { ctx: c.ctx, check: c.pending };
  const check = requireDirectory(fs, c.homeParam, c.ctx.home).then(() => markContextChecked(c.ctx));
  notePendingHomeCheck(c.ctx, check);
  return { ctx: c.ctx, check };
}

/** {@link checkDiscoveryContext}, then the home must be an existing directory (one stat through `fs`). */
export async function requireDiscoveryContext(fs: FileSystemPort, value: unknown, root = 'ctx'): Promise<HomeDiscoveryContext> {
  const c = checkDiscoveryContext(value, root);
  if (c.known) return c.ctx;
  if (c.pending !== undefined) {
    await c.pending;
    return c.ctx;
  }
  await requireDirectory(fs, c.homeParam, c.ctx.home);
  markContextChecked(c.ctx);
  return c.ctx;
}
