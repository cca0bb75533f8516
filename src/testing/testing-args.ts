import { lazySchema, type Zod } from '../lazy-zod.js';
import { AGENT_NAMES } from '../ids/agent-names.js';
import { absolutePathSchema, envSchema, parseArgument, signalSchema } from '../validation/common-schemas.js';
import type { InvalidArgumentError } from '../invalid-argument-error.js';

// Built on first use (zod loads then, not when the package is imported). Fields they do not name are kept.
const schemas = lazySchema((z: Zod) => {
  const absolutePath = absolutePathSchema(z);
  const object = (shape: Parameters<Zod['looseObject']>[0]) => z.looseObject(shape, { error: 'must be an object' });
  const text = z.string({ error: 'must be a string' }).optional();
  const ms = z.number({ error: 'must be a number of milliseconds' }).optional();
  return {
    absolutePath,
    sandboxOptions: object({
      sessions: z.array(z.unknown(), { error: 'must be a list of sessions' }).optional(),
      baseEnv: envSchema(z).optional(),
      startTimeoutMs: ms,
      signal: signalSchema(z).optional(),
    }).optional(),
    fakeAgents: object({
      home: absolutePath,
      runDir: absolutePath.optional(),
      agents: z.array(z.enum(AGENT_NAMES, { error: 'must be an agent name' }), { error: 'must be a list of agent names' }).optional(),
      lifeline: z.string({ error: 'must be a socket address (a string)' }).optional(),
    }),
    fakeHerdr: object({
      statePath: absolutePath,
      spyLogPath: absolutePath.optional(),
      hook: z.unknown().optional(),
      state: z.looseObject({}, { error: 'must be a fake herdr state (an object)' }).optional(),
      pollMs: ms,
      agents: z.enum(['auto', 'spawn', 'simulate'], { error: 'must be "auto", "spawn" or "simulate"' }).optional(),
      readyAfterMs: ms,
    }),
    modelServer: object({
      script: z.array(z.looseObject({}, { error: 'must be a turn (an object)' }), { error: 'must be a list of turns' }).optional(),
      defaultText: text,
      afterToolText: text,
      model: text,
    }).optional(),
  };
});

/** Checks `buildSandbox`'s arguments: `dir` an absolute path, `opts` of its shape; throws {@link InvalidArgumentError}. */
export function checkSandboxArgs(dir: unknown, opts: unknown): void {
  parseArgument(schemas.absolutePath, 'dir', dir);
  parseArgument(schemas.sandboxOptions, 'opts', opts);
}

/** Checks `installFakeAgents`'s arguments: `binDir` and `opts.home` (and `opts.runDir`) absolute paths, `opts.agents` agent names. */
export function checkFakeAgentsArgs(binDir: unknown, opts: unknown): void {
  parseArgument(schemas.absolutePath, 'binDir', binDir);
  parseArgument(schemas.fakeAgents, 'opts', opts);
}

/** Checks `installFakeHerdr`'s arguments: `binDir`, `opts.statePath` (and `opts.spyLogPath`) absolute paths, the rest of their types. */
export function checkFakeHerdrArgs(binDir: unknown, opts: unknown): void {
  parseArgument(schemas.absolutePath, 'binDir', binDir);
  parseArgument(schemas.fakeHerdr, 'opts', opts);
}

/** Checks `startFakeModelServer`'s options: an object (or nothing) whose `script` is a list of turns and texts are strings. */
export function checkModelServerOptions(opts: unknown): void {
  parseArgument(schemas.modelServer, 'opts', opts);
}
