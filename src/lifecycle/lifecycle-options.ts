// The options of SessionLifecycle and its methods, and their checks (kept together so nothing imports the lifecycle back).
import type { z } from 'zod';
import { lazySchema, type Zod } from '../lazy-zod.js';
import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import type { IdOrderGate } from '../gate/id-order-gate.js';
import type { Ports } from '../ports/index.js';
import type { SessionRegistry } from '../registry/session-registry.js';
import type { CreateOptions } from './create-result.js';
import type { LifecycleTimeouts } from './lifecycle-context.js';
import type { SessionSpec } from './session-spec.js';
import type { StopOptions } from './stop-result.js';
import { absolutePathSchema, parseArgument } from '../validation/common-schemas.js';
import { checkOptions, commonOptionShape, msSchema, objectSchema, optionsSchema } from '../validation/workspace-args.js';

/**
 * Options of {@link SessionLifecycle}.
 * @public
 */
export interface SessionLifecycleOptions<Extra extends string = never> {
  /** Ports to use instead of the real ones; those not given are Node's ({@link nodePorts}). */
  ports?: Partial<Ports>;
  /** The home whose agent dirs hold the conversations (default `HOME` of the ProcessPort's environment). */
  home?: string;
  /** The agents' environment (CLAUDE_CONFIG_DIR, CODEX_HOME …); default: decided per adapter from the ProcessPort's. */
  env?: Record<string, string | undefined>;
  /** The workspace's registry (default a new one on the same ports, knowing `agents`). */
  registry?: SessionRegistry;
  /**
   * Agents defined outside the package (`defineAgent`) a session may run, after the built-ins: a spec may name one, its
   * row records the id under the definition's `ownKey`, and a stop's purge goes through a `PurgeService` that knows it.
   * Default: the `agents` of `registry` when given, else none. A `registry` given must know each of them.
   */
  agents?: readonly AgentDefinition<Extra>[];
  /** The id-order gate (default a new one on the same ports and registry). */
  gate?: IdOrderGate;
  /** Waits to override (finite, not negative); defaults: ready 30 s, capture `MAM_ONBOARD_WAIT_S` (else 30 s), exit 15 s, poll 250 ms. */
  timeouts?: Partial<LifecycleTimeouts>;
  /** Let a create register its row in a workspace directory that does not exist yet, creating it (default: an `InvalidArgumentError`). */
  createWorkspace?: boolean;
}

/** The members of {@link SessionLifecycleOptions} other than the instances (`ports`, `registry`, `gate` are objects). */
export function lifecycleOptionShape(z: Zod): Record<string, z.ZodType> {
  const ms = msSchema(z);
  return {
    ...commonOptionShape(z),
    registry: objectSchema(z),
    gate: objectSchema(z),
    createWorkspace: z.boolean({ error: 'must be a boolean' }),
    timeouts: optionsSchema(z, { startMs: ms, readyMs: ms, captureMs: ms, exitMs: ms, pollMs: ms }),
  };
}

const lifecycleOptions = lazySchema((z: Zod) => optionsSchema(z, lifecycleOptionShape(z)));

// Only the types are checked here: what a spec may hold (a known agent, a role, herdr's server rule) stays the
// `failed at validate` result it always was, so a reset run reports an uncreatable target in its table.
const sessionSpec = lazySchema((z: Zod) => {
  const text = z.string({ error: 'must be a string' });
  return z.object({ name: text, agent: text, role: text, herdrServer: text.optional(), herdrWorkspace: text.optional(), cwd: absolutePathSchema(z).optional() }, { error: 'must be an object' }).loose();
});

const createOptions = lazySchema((z: Zod) => optionsSchema(z, { onboard: z.boolean({ error: 'must be a boolean' }), signal: objectSchema(z), replaces: z.string({ error: 'must be a string' }) }));
const stopOptions = lazySchema((z: Zod) => {
  const flag = z.boolean({ error: 'must be a boolean' });
  return optionsSchema(z, { purge: flag, yes: flag, signal: objectSchema(z) });
});

/** Checks {@link SessionLifecycle}'s options: home absolute, env strings, timeouts finite and not negative. */
export function checkLifecycleOptions<Extra extends string = never>(opts: SessionLifecycleOptions<Extra> | undefined): SessionLifecycleOptions<Extra> {
  return checkOptions(lifecycleOptions, 'opts', opts);
}

/** Checks the types of a session spec (`cwd`, when given, absolute). */
export function checkSessionSpec(spec: unknown): SessionSpec {
  parseArgument(sessionSpec, 'spec', spec);
  return spec as SessionSpec;
}

/** Checks create's options. */
export function checkCreateOptions(opts: CreateOptions | undefined): CreateOptions {
  return checkOptions(createOptions, 'opts', opts);
}

/** Checks stop's options (`purge`, `yes` booleans). */
export function checkStopOptions(opts: StopOptions | undefined): StopOptions {
  return checkOptions(stopOptions, 'opts', opts);
}
