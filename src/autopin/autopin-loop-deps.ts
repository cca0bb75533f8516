import { join } from 'node:path';
import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import { JobEngine } from '../jobs/job-engine.js';
import type { LoopDeps, LoopSession } from '../loop/run-loop-types.js';
import { resolvePorts } from '../node/node-ports.js';
import type { Ports } from '../ports/index.js';
import { rowByName } from '../registry/row-lookup.js';
import { registryAgents } from '../registry/registry-agents.js';
import { SessionRegistry } from '../registry/session-registry.js';
import { AutoPin } from './autopin.js';
import { rowHerdrServer } from './row-capture-deps.js';
import { checkOptions, checkPathArg, commonOptionShape, optionsSchema } from '../validation/workspace-args.js';
import { lazySchema, type Zod } from '../lazy-zod.js';
import { absolutePathSchema } from '../validation/common-schemas.js';

const loopDepsOptions = lazySchema((z: Zod) => optionsSchema(z, { ...commonOptionShape(z), jobsDir: absolutePathSchema(z) }));

/** Checks {@link autopinLoopDeps}'s options. */
export function checkLoopDepsOptions<Extra extends string = never>(opts: AutopinLoopDepsOptions<Extra> | undefined): AutopinLoopDepsOptions<Extra> {
  return checkOptions(loopDepsOptions, 'opts', opts);
}

/**
 * Options of {@link autopinLoopDeps}.
 * @public
 */
export interface AutopinLoopDepsOptions<Extra extends string = never> {
  /** Ports to use instead of the real ones; those not given are Node's ({@link nodePorts}). */
  ports?: Partial<Ports>;
  /** The home whose agent dirs hold the conversations (default `HOME` of the ProcessPort's environment). */
  home?: string;
  /** The agents' environment; default: each adapter reads the ProcessPort's. */
  env?: Record<string, string | undefined>;
  /** The job registry dir (default `<workspace>/.mam/jobs`). */
  jobsDir?: string;
  /**
   * Agents defined outside the package (`defineAgent`) the creator's row (and any row AutoPin pins) may name, after the
   * built-ins: the registry and AutoPin know them. None by default.
   */
  agents?: readonly AgentDefinition<Extra>[];
}

/**
 * What `runLoop` is handed for a workspace: the job engine over `.mam/jobs/`, the creator's session from the registry, and
 * AutoPin — so the loop package itself reaches no registry, engine or adapter.
 * @example
 * ```ts
 * const out = await runLoop({ workspace: '/repo', creator: 'creator-agy-01', task, deps: autopinLoopDeps('/repo') });
 * ```
 * @public
 */
export function autopinLoopDeps<Extra extends string = never>(workspace: string, options: AutopinLoopDepsOptions<Extra> = {}): LoopDeps {
  checkPathArg('workspace', workspace);
  const opts = checkLoopDepsOptions(options);
  const ports = resolvePorts(opts.ports);
  const jobsDir = opts.jobsDir ?? join(workspace, '.mam', 'jobs');
  // Checked as the registry checks them, before anything is made.
  const agents = options.agents;
  registryAgents(agents, 'opts.agents');
  const registry = new SessionRegistry(workspace, { ports, ...(agents === undefined ? {} : { agents }) });
  const autopin = new AutoPin(workspace, {
    ports, registry, jobsDir,
    ...(opts.home === undefined ? {} : { home: opts.home }),
    ...(opts.env === undefined ? {} : { env: opts.env }),
  });
  const sessions = {
    async find(name: string): Promise<LoopSession | null> {
      const row = rowByName(await registry.snapshot(), name);
      if (row === undefined) return null;
      const pid = row.pane?.pid;
      return { name: row.name, status: row.status, herdrServer: rowHerdrServer(row), panePid: typeof pid === 'number' && pid > 0 ? pid : null };
    },
  };
  return { jobs: new JobEngine(jobsDir, { ports }), sessions, autopin };
}
