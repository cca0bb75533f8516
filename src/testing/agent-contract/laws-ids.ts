import { join } from 'node:path';
import type { AgentAdapter, HomeDiscoveryContext } from '../../agents/types.js';
import { isAgentName } from '../../ids/agent-names.js';
import { isPlausibleId } from '../../ids/agent-id.js';
import { InvalidArgumentError } from '../../invalid-argument-error.js';
import { type LawInput, type LawOutcome, messageOf, show } from './law-outcome.js';
import { pathLogFs } from './path-log-fs.js';

// One id of each built-in shape: an agent must find the others' implausible.
const SHAPE_SAMPLES = ['0198c3a2-7b1d-7c3e-8f00-1234567890ab', 'ses_0123456789abAbCdEfGhIjKlMn', '20260101_120000_abcdef'];

/** The implausible ids the law tries on an adapter named `agent` in a stage rooted at `root`. */
export function implausibleIds(agent: string, root: string, extra: readonly string[] = []): string[] {
  const shapes = isAgentName(agent) ? SHAPE_SAMPLES.filter((id) => !isPlausibleId(agent, id)) : [];
  return ['../x', '', 'a\0b', '..', '/etc/passwd', root, join(root, 'x'), ...shapes, ...extra];
}

// Every method of the adapter that takes an id, called with it; each answer must be "nothing".
async function answers(a: AgentAdapter, id: string, ctx: HomeDiscoveryContext): Promise<string[]> {
  const wrong: string[] = [];
  const expect = async (what: string, call: () => Promise<unknown> | undefined, nothing: (v: unknown) => boolean): Promise<void> => {
    try {
      const v = await call();
      if (!nothing(v)) wrong.push(`${what} answered ${show(v)}`);
    } catch (err) {
      wrong.push(`${what} rejected (${messageOf(err)})`);
    }
  };
  const no = (v: unknown): boolean => v === false;
  const empty = (v: unknown): boolean => Array.isArray(v) && v.length === 0;
  await expect('verifyArtifact', () => a.verifyArtifact(id, ctx), no);
  await expect("verifyArtifact(…, 'discover')", () => a.verifyArtifact(id, ctx, 'discover'), no);
  await expect('hasArtifacts', () => a.hasArtifacts(id, ctx), no);
  if (a.owns !== undefined) await expect('owns', () => a.owns?.(id, ctx), no);
  await expect('planPurge', () => a.planPurge(id, ctx), (v) => {
    const p = v as { artifacts?: unknown; refused?: unknown };
    return empty(p?.artifacts) && empty(p?.refused);
  });
  await expect('purgeArtifacts', () => a.purgeArtifacts(id, ctx), empty);
  await expect('residualArtifacts', () => a.residualArtifacts(id, ctx), empty);
  await expect('mentions', () => a.mentions(id, ctx), empty);
  await expect('inUseHolders', () => a.inUseHolders(id, ctx), empty);
  await expect('conversationInUse', () => a.conversationInUse(id, ctx), no);
  return wrong;
}

/** `implausible-id-reads-nothing`: an implausible id reaches no path and finds nothing (a process naming it included). */
export function implausibleIdReadsNothing(input: LawInput): Promise<LawOutcome> {
  return input.withStage(async (run) => {
    const problems: string[] = [];
    const probe = run.adapter();
    const ids = implausibleIds(probe.adapter.name, run.root, input.options.implausibleIds);
    // A live process naming every implausible id: it must not count as a holder of any.
    const namer = { pid: 4343, ppid: 1, argv: [probe.adapter.name, ...ids.filter((id) => id !== '' && !id.includes('\0'))] };
    for (const id of ids) {
      const log = pathLogFs(input.base.fs);
      const { adapter } = run.adapter({ fs: log.fs, processes: [namer] });
      const wrong = await answers(adapter, id, run.ctx());
      if (log.calls.length > 0) wrong.push(`reached ${log.calls.length} path(s): ${log.calls.slice(0, 3).join('; ')}`);
      if (wrong.length > 0) problems.push(`id ${show(id)}: ${wrong.join(', ')}`);
    }
    return { problems };
  });
}

function isInvalidArgument(err: unknown): boolean {
  return err instanceof InvalidArgumentError || (typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'INVALID_ARGUMENT');
}

/** `bad-arguments-rejected`: a number for an id, a relative workspace, a missing home or context throw InvalidArgumentError. */
export function badArgumentsRejected(input: LawInput): Promise<LawOutcome> {
  return input.withStage(async (run) => {
    const { adapter: a } = run.adapter();
    const ctx = run.ctx();
    const id = run.layout.ids[0] ?? run.layout.refusedIds?.[0] ?? run.layout.otherWorkspace?.ids[0];
    const relative = { ...ctx, workspace: 'relative/workspace' };
    const noHome = { ...ctx, home: join(run.root, 'no-such-home') };
    const num = 42 as unknown as string;
    const cases: Array<[string, () => unknown]> = [
      ['discover(undefined)', () => a.discover(undefined as never)],
      ['discover with a relative workspace', () => a.discover(relative)],
      ['discover with a missing home', () => a.discover(noHome)],
      ['verifyArtifact(42)', () => a.verifyArtifact(num, ctx)],
      ['planPurge(42)', () => a.planPurge(num, ctx)],
      ['purgeArtifacts(42)', () => a.purgeArtifacts(num, ctx)],
      ['residualArtifacts(42)', () => a.residualArtifacts(num, ctx)],
      ['inUseHolders(42)', () => a.inUseHolders(num, ctx)],
      ['inUseHints(42)', () => a.inUseHints(num, ctx)],
      ...(a.verifyMany === undefined ? [] : ([['verifyMany(42)', () => a.verifyMany?.(num as never, ctx)]] as Array<[string, () => unknown]>)),
      ...(id === undefined
        ? []
        : ([
            ['verifyArtifact with a relative workspace', () => a.verifyArtifact(id, relative)],
            ['verifyArtifact with a missing home', () => a.verifyArtifact(id, noHome)],
            ['planPurge with a missing home', () => a.planPurge(id, noHome)],
            ['purgeArtifacts with a missing home', () => a.purgeArtifacts(id, noHome)],
          ] as Array<[string, () => unknown]>)),
    ];
    const problems: string[] = [];
    for (const [what, call] of cases) {
      try {
        const v = await call();
        problems.push(`${what} answered ${show(v)} instead of throwing InvalidArgumentError`);
      } catch (err) {
        if (!isInvalidArgument(err)) problems.push(`${what} threw ${messageOf(err)}, not InvalidArgumentError`);
      }
    }
    return { problems };
  });
}
