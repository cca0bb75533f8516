import { stopIfAborted } from '../abort.js';
import { describeError } from '../errors.js';
import { adaptersOf } from '../agents/adapters-of.js';
import type { AgentAdapter, StoreReport } from '../agents/types.js';
import { AGENT_NAMES } from '../ids/agent-names.js';
import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import { checkOutsideAgents, outsideAdapter } from '../agents/outside-agents.js';
import type { Ports } from '../ports/index.js';
import { resolvePorts } from '../node/node-ports.js';
import { checkInspectOptionsShape, requireInspectHome } from './inspect-args.js';
import type { InvalidArgumentError } from '../invalid-argument-error.js';
import { faultAdvice, faultCauseOfText, type PurgeFault } from '../purge/purge-fault.js';

// The problems that name a cause, typed (the path is the report's root: a problem line names its file itself).
function withFaults(r: StoreReport): StoreReport {
  const faults = r.problems.flatMap((p): PurgeFault[] => {
    const cause = faultCauseOfText(p);
    return cause === null ? [] : [{ cause, path: r.root, detail: p, advice: faultAdvice(cause) }];
  });
  return { ...r, faults };
}

/**
 * Options of {@link inspectStores}.
 * @public
 */
export interface InspectStoresOptions {
  /** The home whose agent stores are looked at. */
  home: string;
  /** The agents' environment (CODEX_HOME, CLAUDE_CONFIG_DIR, XDG_DATA_HOME …); default: the caller's, for the caller's own home only. */
  env?: Record<string, string | undefined>;
  /** The ports to look through (default: the Node ones). */
  ports?: Partial<Ports>;
  /** Stops the inspection between stores (and between reads of one), rejecting with `signal.reason`. */
  signal?: AbortSignal;
  /**
   * Agents defined outside the package (`defineAgent`): their stores are reported after the built-ins', in the order
   * given. A name of a built-in agent, or one given twice, throws `InvalidArgumentError` naming `opts.agents`.
   */
  agents?: readonly AgentDefinition[];
}

function notInspected(agent: AgentAdapter<string>['name']): StoreReport {
  return { agent, presence: 'not-inspected', root: null, layout: null, known: null, counts: {}, problems: [] };
}

/**
 * Per agent (the built-ins, then `opts.agents` in their order), what its store looks like before anything destructive runs: is it there, which layout or version it records,
 * known or unknown (an unknown one makes purges refuse), counts, and problems — the fail-closed decision made visible.
 * Cheap and read-only: databases are read through the read-only opener (no sidecar is created or removed), no agent CLI
 * is run. An agent without a store inspection is `not-inspected`. Problems that name a cause are typed in `faults`
 * (an unreadable store, a read-only disk, a missing better-sqlite3 binding with how to fix the install). Never rejects on a bad store; options it cannot take
 * (a relative or missing home, wrong types) throw {@link InvalidArgumentError} naming the option.
 * @example
 * ```ts
 * const reports = await inspectStores({ home: '/home/me' });
 * const text = formatStoreReport(reports); // what `mam doctor` prints
 * ```
 * @public
 */
export async function inspectStores(opts: InspectStoresOptions): Promise<StoreReport[]> {
  checkInspectOptionsShape(opts);
  const outside = checkOutsideAgents(opts.agents, 'opts.agents');
  const { signal } = opts;
  stopIfAborted(signal);
  const ports = resolvePorts(opts.ports);
  await requireInspectHome(ports.fs, opts.home);
  const ctx = { workspace: opts.home, home: opts.home, ...(opts.env === undefined ? {} : { env: opts.env }), ...(signal === undefined ? {} : { signal }) };
  const adapters: AgentAdapter<string>[] = [...AGENT_NAMES.map((name) => adaptersOf(ports).get(name)), ...outside.map((d) => outsideAdapter(ports, d))];
  const reports = await Promise.all(
    adapters.map(async (adapter) => {
      const name = adapter.name;
      if (adapter.inspect === undefined) return withFaults(notInspected(name));
      try {
        return withFaults(await adapter.inspect(ctx));
      } catch (err) {
        // An abort is the caller's, not the store's: it ends the whole call.
        stopIfAborted(signal);
        return withFaults({ ...notInspected(name), presence: 'present' as const, known: false, problems: [`inspection failed: ${describeError(err)}`], readable: false });
      }
    }),
  );
  stopIfAborted(signal);
  return reports;
}
