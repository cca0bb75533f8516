// Fault injection over a full reset: a sandbox with live fake agents (a scenario, see fault-reset-scenarios.ts: claude +
// codex, or opencode + agy + hermes), reset with `ports.fs` replaced by a RecordingFileSystem that fails a mutation with
// an errno, then rerun without faults. One sandbox serves every case: the rerun that ends a case leaves every target
// running on a fresh conversation, the next case's starting point (rows put back in order; a case that ends broken
// rebuilds it).
import { afterAll, beforeAll } from 'vitest';
import { ownKey } from '../../src/ids/agent-names.js';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { nodePorts } from '../../src/node/node-ports.js';
import { ResetPlanner } from '../../src/reset/index.js';
import { FakeProcessTable } from '../../src/testing/process/fake-process-table.js';
import { type FaultErrno, type FaultPlan, type RecordedMutation, RecordingFileSystem } from '../../src/testing/fs/recording-file-system.js';
import { judgeFaulted, type Ran, said } from './fault-reset-judge.js';
import { CLAUDE_CODEX, type FaultResetScenario } from './fault-reset-scenarios.js';
import { cleanEndProblems, type TargetRow, targetRows } from './fault-reset-state.js';
import { inProcessHerdr } from './in-process-herdr.js';
import { FAST, resetSandbox } from './reset-sandbox.js';

export const RESET_FAULT_CODES: readonly FaultErrno[] = ['EACCES', 'EBUSY', 'ENOSPC', 'EIO'];

/**
 * A sandbox of `scenario` to reset again and again, rebuilt when a case leaves it broken. The rows of the scenario's
 * `unrecorded` agents have their id taken off before every run: the reset then captures it before the stop and records
 * it into the spec (§5.2-8b).
 */
export interface FaultResetKit {
  current: Awaited<ReturnType<typeof resetSandbox>>;
  scenario: FaultResetScenario;
  /** How the reset reaches the fake herdr: answered in this process (default), or the installed executable per call. */
  herdr: 'in-process' | 'executable';
  dispose(): Promise<void>;
}

export async function buildFaultReset(scenario: FaultResetScenario = CLAUDE_CODEX, herdr: FaultResetKit['herdr'] = 'in-process'): Promise<FaultResetKit> {
  const kit: FaultResetKit = {
    current: await resetSandbox([...scenario.sessions]),
    scenario,
    herdr,
    dispose: async () => kit.current.dispose(),
  };
  return kit;
}

// The targets' rows before a run (ids as recorded), then the id taken off the rows the scenario wants unrecorded.
async function prepare(kit: FaultResetKit): Promise<TargetRow[]> {
  const before = await targetRows(kit.current.sb, kit.scenario.sessions);
  const { unrecorded } = kit.scenario;
  if (unrecorded.length > 0) {
    await kit.current.sb.registry.update((draft) => {
      for (const row of draft.herdr_sessions) {
        if (row.agent !== undefined && unrecorded.includes(row.agent)) delete (row as Record<string, unknown>)[ownKey(row.agent)];
      }
    });
  }
  return before;
}

// A planner over the sandbox with the given filesystem port (the other ports real, herdr the fake executable).
function plannerOn(kit: FaultResetKit, fs: RecordingFileSystem): ResetPlanner {
  const { sb } = kit.current;
  const env = { ...sb.env };
  const ports = { ...nodePorts({ env, herdrBin: sb.herdrBin }), fs };
  if (kit.herdr === 'in-process') {
    ports.herdr = inProcessHerdr(sb, env);
    // The sweep injects filesystem faults: the purges' in-use gate reads an empty process table (as the purge fault
    // sweep does) instead of `ps`/`lsof` at every purge; the executable-based case per scenario keeps the real one.
    ports.proc = new FakeProcessTable();
  }
  return new ResetPlanner(sb.workspace, { ports, lifecycle: { home: sb.home, env, timeouts: FAST } });
}

/** Runs `mam reset --yes` in-process over `fs`, catching a throw and any rejection nobody awaited. */
export async function runOnce(kit: FaultResetKit, fs: RecordingFileSystem): Promise<Ran> {
  const trace: string[] = [];
  const unhandled: string[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason instanceof Error ? reason.message : String(reason));
  process.on('unhandledRejection', onUnhandled);
  try {
    const out = await plannerOn(kit, fs).run({ yes: true, callerEnv: {}, onTrace: (l) => trace.push(l) });
    return { out, threw: null, unhandled, trace, fs };
  } catch (err) {
    return { out: null, threw: err instanceof Error ? `${err.name}: ${err.message}` : String(err), unhandled, trace, fs };
  } finally {
    // A rejection nobody awaited surfaces within a turn or two of the event loop.
    await new Promise((r) => setTimeout(r, 20));
    process.off('unhandledRejection', onUnhandled);
  }
}

// `op path`, sandbox root, ids, hashes and numbers masked: the same step of another run reads the same.
function opLabel(kit: FaultResetKit, m: RecordedMutation): string {
  const path = m.path
    .replace(kit.current.sb.dir, '')
    .replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g, '<id>')
    .replace(/ses_[0-9A-Za-z]{26}/g, '<id>')
    .replace(/[0-9a-f]{16}/g, '<hash>');
  return `${m.op} ${path.replace(/mam-reset-e2e-[A-Za-z0-9]+/g, '<root>').replace(/[0-9]+/g, 'N')}`;
}

// The rows back in the sandbox's order (a recreated row is appended), so every case meets the same mutation order.
async function keepOrder(kit: FaultResetKit): Promise<void> {
  const order = kit.scenario.sessions.map((s) => s.name);
  await kit.current.sb.registry.update((draft) => {
    draft.herdr_sessions.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  });
}

/** What a clean reset did: its mutations in order (the n a fault can hit), ids masked; and what it broke (nothing). */
export interface CleanReset {
  mutations: number;
  ops: string[];
  problems: string[];
}

/** A clean reset of the sandbox: its mutations and any broken promise of its end state. */
export async function cleanResetRun(kit: FaultResetKit): Promise<CleanReset> {
  const before = await prepare(kit);
  const ran = await runOnce(kit, new RecordingFileSystem(new NodeFileSystem()));
  const problems = ran.out?.exitCode === 0 ? await cleanEndProblems(kit.current.sb, before) : [`clean run: ${said(ran)}`];
  return { mutations: ran.fs.mutations.length, ops: ran.fs.mutations.map((m) => opLabel(kit, m)), problems };
}

/**
 * One case: reset under `plan`, judge what it returned and left (plus `check`, right after the faulted run), then rerun
 * without faults and check the end state of a clean reset. Returns every broken promise (empty: passed) and the run.
 */
export async function faultCase(kit: FaultResetKit, plan: FaultPlan, at: string, check: (ran: Ran) => string[] = () => []): Promise<{ problems: string[]; faulted: Ran }> {
  const before = await prepare(kit);
  const faulted = await runOnce(kit, new RecordingFileSystem(new NodeFileSystem(), { failAt: plan }));
  const problems = faulted.fs.mutations.some((m) => m.fault !== undefined) ? [] : [`${at}: the fault never fired (${faulted.fs.mutations.length} mutations)`];
  problems.push(...check(faulted), ...(await judgeFaulted(kit.current.sb, faulted, before, at)));
  // The rerun only finishes what the faulted run left: it answers the fake herdr in this process whatever the kit's
  // transport (through the executable it would cost a node start per herdr call and prove nothing more).
  const again = await withKit(kit, { herdr: 'in-process' }, () => runOnce(kit, new RecordingFileSystem(new NodeFileSystem())));
  if (again.out?.exitCode !== 0) problems.push(`${at}: the rerun did not complete: ${said(again)}`);
  else problems.push(...(await cleanEndProblems(kit.current.sb, before)).map((p) => `${at}: after the rerun, ${p}`));
  if (problems.length > 0) {
    await kit.current.dispose();
    kit.current = await resetSandbox([...kit.scenario.sessions]);
  } else await keepOrder(kit);
  return { problems, faulted };
}

/** A plan failing the first mutation `pick` chooses (given the mutations before it) with `code`: a step, not an n. */
export function failOnce(code: FaultErrno, pick: (m: RecordedMutation, seen: readonly RecordedMutation[]) => boolean): FaultPlan {
  const seen: RecordedMutation[] = [];
  let fired = false;
  return (m) => {
    const hit = !fired && pick(m, seen);
    seen.push(m);
    fired ||= hit;
    return hit ? code : null;
  };
}

/** The case where the n-th mutation (of the clean run's order) fails with `code`; also checks it hit the same step. */
export async function faultedResetRun(kit: FaultResetKit, clean: CleanReset, n: number, code: FaultErrno): Promise<string[]> {
  const at = `n=${n} ${code} (${clean.ops[n - 1] ?? '?'})`;
  const sameStep = (ran: Ran): string[] => {
    const hit = ran.fs.mutations[n - 1];
    return hit === undefined || opLabel(kit, hit) === clean.ops[n - 1] ? [] : [`${at}: hit ${opLabel(kit, hit)} instead: the run took another path`];
  };
  return (await faultCase(kit, { n, code }, at, sameStep)).problems;
}

/**
 * The clean run's mutations grouped by the step they belong to: an atomic write's temp write and rename are one step,
 * and so are the removals of one purge (consecutive mutations under the home). Each group lists its n's.
 */
export function stepGroups(clean: CleanReset): number[][] {
  const groups: number[][] = [];
  clean.ops.forEach((label, i) => {
    const prev = clean.ops[i - 1];
    const last = groups.at(-1);
    const sameWrite = prev !== undefined && label.startsWith('rename ') && prev === `writeFile ${label.slice('rename '.length)}`;
    const samePurge = prev !== undefined && / \/home\//.test(label) && / \/home\//.test(prev);
    if (last !== undefined && (sameWrite || samePurge)) last.push(i + 1);
    else groups.push([i + 1]);
  });
  return groups;
}

/** One n of every step group (codes rotating), plus every code at the first and the last n: the slow tier's sweep. */
export function everyStepPlan(clean: CleanReset): Array<[number, FaultErrno]> {
  const last = clean.mutations;
  const plan: Array<[number, FaultErrno]> = [];
  stepGroups(clean).forEach((group, g) => {
    const n = group[g % group.length] ?? group[0] ?? 1;
    plan.push([n, RESET_FAULT_CODES[g % RESET_FAULT_CODES.length] ?? 'EIO']);
  });
  for (const n of [1, last]) for (const code of RESET_FAULT_CODES) if (!plan.some(([m, c]) => m === n && c === code)) plan.push([n, code]);
  return plan;
}

/**
 * One n of every kind of step (codes rotating): the first group of each distinct first mutation (a registry write, a
 * spec write, a purge's removal under one agent's home, a marker's release…; ids and numbers masked), plus the last
 * mutation with every code not drawn yet for it. What `npm test` sweeps; the slow tier takes every group.
 */
export function everyKindPlan(clean: CleanReset): Array<[number, FaultErrno]> {
  const seen = new Set<string>();
  const plan: Array<[number, FaultErrno]> = [];
  for (const group of stepGroups(clean)) {
    const n = group[0] ?? 1;
    const kind = clean.ops[n - 1] ?? '?';
    if (seen.has(kind)) continue;
    seen.add(kind);
    plan.push([n, RESET_FAULT_CODES[plan.length % RESET_FAULT_CODES.length] ?? 'EIO']);
  }
  return plan;
}

/**
 * Runs `body` on `kit` switched to `over` (the other herdr transport, or a scenario of the same sessions that takes
 * other ids off), then switches it back: a case that needs either runs on the sandbox already built (a sandbox costs a
 * fake herdr executable start per session step and an agent process per session), not on one of its own. Each case
 * ends with the sandbox in the state of a clean reset, whichever way it ran.
 */
export async function withKit<T>(kit: FaultResetKit, over: Partial<Pick<FaultResetKit, 'herdr' | 'scenario'>>, body: () => Promise<T>): Promise<T> {
  const { herdr, scenario } = kit;
  if (over.scenario !== undefined && over.scenario.sessions.map((x) => x.name).join() !== scenario.sessions.map((x) => x.name).join()) {
    throw new Error(`withKit: scenario "${over.scenario.label}" has other sessions than the kit's "${scenario.label}"`);
  }
  Object.assign(kit, over);
  try {
    return await body();
  } finally {
    kit.herdr = herdr;
    kit.scenario = scenario;
  }
}

/**
 * Registers, in the current describe block, a kit of `scenario` built before its tests (with a clean run of it when
 * `withClean`) and disposed after them; the getters read them once built.
 */
export function useFaultReset(scenario: FaultResetScenario = CLAUDE_CODEX, herdr: FaultResetKit['herdr'] = 'in-process', withClean = false): { kit: () => FaultResetKit; clean: () => CleanReset } {
  let kit: FaultResetKit | undefined;
  let clean: CleanReset | undefined;
  beforeAll(async () => {
    kit = await buildFaultReset(scenario, herdr);
    if (withClean) clean = await cleanResetRun(kit);
  }, 60_000);
  afterAll(async () => {
    await kit?.dispose();
  });
  const built = <T>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`the fault-reset ${what} was not built (its beforeAll failed)`);
    return v;
  };
  return { kit: () => built(kit, 'kit'), clean: () => built(clean, 'clean run') };
}
