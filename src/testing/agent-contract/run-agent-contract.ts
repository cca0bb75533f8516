import { resolvePorts } from '../../node/node-ports.js';
import { InvalidArgumentError } from '../../invalid-argument-error.js';
import type { Ports } from '../../ports/index.js';
import { checkContractOptions } from './check-options.js';
import { SharedStage, type StageRun, withFreshStage } from './stage-run.js';
import { type LawInput, type LawOutcome, messageOf } from './law-outcome.js';
import { discoverOffersIds, discoverVerifies, verifyManyAgrees } from './laws-discover.js';
import { badArgumentsRejected, implausibleIdReadsNothing } from './laws-ids.js';
import { inspectNeverRejects } from './laws-inspect.js';
import { liveHolderRefuses, planChangesNothing, purgeRemovesId, unknownLayoutRefuses } from './laws-purge.js';
import type { AgentContractLaw, AgentContractLawResult, AgentContractOptions, AgentContractReport, AgentContractRunner, AgentContractStage } from './types.js';

const LAWS: Readonly<Record<AgentContractLaw, (input: LawInput) => Promise<LawOutcome>>> = {
  'discover-verifies': discoverVerifies,
  'discover-offers-ids': discoverOffersIds,
  'verify-many-agrees': verifyManyAgrees,
  'implausible-id-reads-nothing': implausibleIdReadsNothing,
  'plan-changes-nothing': planChangesNothing,
  'purge-removes-id': purgeRemovesId,
  'live-holder-refuses': liveHolderRefuses,
  'unknown-layout-refuses': unknownLayoutRefuses,
  'inspect-never-rejects': inspectNeverRejects,
  'bad-arguments-rejected': badArgumentsRejected,
};

const ORDINARY_ONLY = new Set<AgentContractLaw>(['purge-removes-id', 'live-holder-refuses']);
// The laws that only read the stage: they share one build of it (the others each get their own).
const READ_ONLY = new Set<AgentContractLaw>(['discover-verifies', 'discover-offers-ids', 'verify-many-agrees', 'implausible-id-reads-nothing', 'inspect-never-rejects', 'bad-arguments-rejected']);

/** The laws that run on a stage: an unknown-layout stage trades the purge laws for `unknown-layout-refuses`. */
function lawsOf(stage: AgentContractStage): AgentContractLaw[] {
  const unknown = stage.unknownLayout === true;
  const laws = (Object.keys(LAWS) as AgentContractLaw[]).filter((law) => (law === 'unknown-layout-refuses' ? unknown : !(unknown && ORDINARY_ONLY.has(law))));
  // Those sharing a build first, so it is removed before the others build their own.
  return [...laws.filter((l) => READ_ONLY.has(l)), ...laws.filter((l) => !READ_ONLY.has(l))];
}

// The ports the stages run on: the caller's, the rest Node's (the process table is the suite's own, per adapter).
function basePorts(options: AgentContractOptions): Ports {
  return resolvePorts({ ...(options.ports ?? {}) });
}

async function runLaw(options: AgentContractOptions, base: Ports, stage: AgentContractStage, shared: SharedStage, law: AgentContractLaw): Promise<AgentContractLawResult> {
  const withStage = <T>(fn: (run: StageRun) => Promise<T>): Promise<T> => (READ_ONLY.has(law) ? shared.use(fn) : withFreshStage(options, base, stage, fn));
  try {
    const { problems, remark } = await LAWS[law]({ options, base, withStage });
    if (problems.length > 0) return { law, stage: stage.name, ok: false, message: problems.join('\n') };
    return { law, stage: stage.name, ok: true, ...(remark === undefined ? {} : { message: remark }) };
  } catch (err) {
    // A stage that cannot be built, or an adapter method that rejects where the law expects an answer.
    return { law, stage: stage.name, ok: false, message: `the law could not run: ${messageOf(err)}` };
  }
}

/**
 * Runs every law of the agent contract ({@link AGENT_CONTRACT_LAWS}) over every stage, each law on a stage freshly built
 * in its own temp dir (removed afterwards), and reports each verdict. A failed law is a verdict, never a rejection; bad
 * options throw `InvalidArgumentError`. Framework-agnostic: a plain script can run it.
 * @example
 * ```ts
 * const report = await runAgentContract({ adapter: (ports) => getAdapter('codex', { ports }), stages: [codexStage] });
 * for (const l of report.laws) if (!l.ok) failures.push(`${l.stage}: ${l.law}: ${l.message}`);
 * ```
 * @public
 */
export async function runAgentContract(options: AgentContractOptions): Promise<AgentContractReport> {
  const checked = checkContractOptions(options);
  const base = basePorts(checked);
  const laws: AgentContractLawResult[] = [];
  for (const stage of checked.stages) {
    const shared = new SharedStage(checked, () => base, stage);
    try {
      for (const law of lawsOf(stage)) laws.push(await runLaw(checked, base, stage, shared, law));
    } finally {
      await shared.release();
    }
  }
  return { agent: agentName(checked, base), passed: laws.every((l) => l.ok), laws };
}

function agentName(options: AgentContractOptions, base: Ports): string {
  try {
    return String(options.adapter(base).name);
  } catch {
    return '(unknown)';
  }
}

/**
 * Registers the agent contract with a test runner: one `describe` per stage, one test per law that runs it and fails
 * with the law's message (vitest, jest or `node:test`: pass their `describe` and `it`; none is imported here).
 * @example
 * ```ts
 * import { describe, it } from 'vitest';
 * describeAgentContract({ adapter: (ports) => new MyAdapter(ports), stages: [myStage] }, { describe, it });
 * ```
 * @public
 */
export function describeAgentContract(options: AgentContractOptions, runner: AgentContractRunner): void {
  const checked = checkContractOptions(options);
  if (typeof runner !== 'object' || runner === null || typeof runner.describe !== 'function' || typeof runner.it !== 'function') {
    throw new InvalidArgumentError('runner', 'must be an object { describe, it } of a test runner');
  }
  let ports: Ports | undefined;
  const base = (): Ports => (ports ??= basePorts(checked));
  for (const stage of checked.stages) {
    runner.describe(stage.name, () => {
      const laws = lawsOf(stage);
      const shared = new SharedStage(checked, base, stage);
      // The shared build goes once the last law that reads it has run (or at the runner's afterAll, when some were skipped).
      let readers = laws.filter((law) => READ_ONLY.has(law)).length;
      runner.afterAll?.(() => shared.release());
      for (const law of laws) {
        runner.it(law, async () => {
          try {
            const result = await runLaw(checked, base(), stage, shared, law);
            if (!result.ok) throw new Error(`${law} fails on stage ${stage.name}:\n${result.message ?? ''}`);
          } finally {
            if (READ_ONLY.has(law) && --readers === 0) await shared.release();
          }
        });
      }
    });
  }
}
