import { isAgentName } from '../../ids/agent-names.js';
import { PurgeService } from '../../purge/purge-service.js';
import type { Ports } from '../../ports/index.js';
import type { AgentAdapter } from '../../agents/types.js';
import type { AgentDefinition } from '../../agents/contract/agent-definition.js';
import type { AgentContractPurgeService } from './types.js';
import { type LawInput, type LawOutcome, messageOf, show } from './law-outcome.js';
import { snapshotDiff, treeSnapshot } from './tree-snapshot.js';

/** `plan-changes-nothing`: planning a purge of every id of the stage leaves the tree as it was. */
export function planChangesNothing(input: LawInput): Promise<LawOutcome> {
  return input.withStage(async (run) => {
    const { adapter } = run.adapter();
    const { layout } = run;
    const before = await treeSnapshot(input.base.fs, run.root);
    const problems: string[] = [];
    for (const [ids, workspace] of [[[...layout.ids, ...(layout.refusedIds ?? [])], layout.workspace], [layout.otherWorkspace?.ids ?? [], layout.otherWorkspace?.workspace]] as const) {
      for (const id of ids) {
        try {
          await adapter.planPurge(id, run.ctx(workspace));
        } catch (err) {
          problems.push(`planPurge(${id}) rejected (${messageOf(err)})`);
        }
      }
    }
    const diff = snapshotDiff(before, await treeSnapshot(input.base.fs, run.root));
    if (diff.length > 0) problems.push(`planning changed the tree: ${diff.join('; ')}`);
    return { problems };
  });
}

/** `purge-removes-id`: after the purge nothing of the id verifies or is offered, siblings verify, every residual has a reason. */
export function purgeRemovesId(input: LawInput): Promise<LawOutcome> {
  return input.withStage(async (run) => {
    const { layout } = run;
    const target = layout.ids[0];
    if (target === undefined) return { problems: ['the stage lists no conversation to purge (ids is empty)'] };
    const { adapter } = run.adapter();
    const ctx = run.ctx();
    if ((await adapter.verifyArtifact(target, ctx)) !== true) return { problems: [`${target} does not verify before the purge`] };
    const problems: string[] = [];
    try {
      await adapter.purgeArtifacts(target, ctx);
    } catch (err) {
      return { problems: [`purgeArtifacts(${target}) rejected (${messageOf(err)})`] };
    }
    const workspaces = [layout.workspace, ...(layout.otherWorkspace === undefined ? [] : [layout.otherWorkspace.workspace])];
    // Asked of the adapter that purged and of a fresh one (nothing remembered from before the purge may answer).
    for (const [label, a] of [['', adapter], [' (a fresh adapter)', run.adapter().adapter]] as const) {
      for (const w of workspaces) {
        const c = run.ctx(w);
        for (const mode of ['verify', 'discover'] as const) if (await a.verifyArtifact(target, c, mode)) problems.push(`${target} still verifies in ${w} (${mode} mode) after its purge${label}`);
        if ((await a.discover(c)).includes(target)) problems.push(`discover in ${w} still offers ${target} after its purge${label}`);
      }
      for (const id of layout.ids.slice(1)) if (!(await a.verifyArtifact(id, ctx))) problems.push(`the sibling ${id} no longer verifies after the purge of ${target}${label}`);
      const other = layout.otherWorkspace;
      for (const id of other?.ids ?? []) if (other !== undefined && !(await a.verifyArtifact(id, run.ctx(other.workspace)))) problems.push(`${id} of the other workspace no longer verifies after the purge of ${target}${label}`);
    }
    const residual = await adapter.residualArtifacts(target, ctx);
    for (const left of residual) if (typeof left.reason !== 'string' || left.reason.trim() === '') problems.push(`a residual artifact carries no reason: ${show(left)}`);
    return { problems };
  });
}

/** `live-holder-refuses`: a live process naming the id is a holder, and (with the hook) PurgeService refuses, changing nothing. */
export function liveHolderRefuses(input: LawInput): Promise<LawOutcome> {
  return input.withStage(async (run) => {
    const target = run.layout.ids[0];
    if (target === undefined) return { problems: ['the stage lists no conversation to hold (ids is empty)'] };
    const holder = { pid: 4242, ppid: 1, argv: [run.adapter().adapter.name, '--resume', target], startedAtMs: 1_700_000_000_000 };
    const { adapter, ports } = run.adapter({ processes: [holder] });
    const ctx = run.ctx();
    const problems: string[] = [];
    const holders = await adapter.inUseHolders(target, ctx);
    if (!holders.some((h) => h.pid === holder.pid)) problems.push(`inUseHolders(${target}) does not name the live process ${holder.pid} whose command line names the id (got ${show(holders)})`);
    if ((await adapter.conversationInUse(target, ctx)) !== true) problems.push(`conversationInUse(${target}) is not true while process ${holder.pid} names it`);
    const service = input.options.purgeService ?? outsideService(adapter);
    if (service === undefined) return { problems, remark: 'checked at the adapter level (a built-in agent and no purgeService option)' };
    const before = await treeSnapshot(input.base.fs, run.root);
    try {
      const result = await service(ports).purge(adapter.name, target, { home: run.layout.home, workspace: run.layout.workspace, ...(run.layout.env === undefined ? {} : { env: run.layout.env }) });
      if (result.kind !== 'in-use') problems.push(`the purge service answered ${show(result.kind)}, not in-use, while process ${holder.pid} names the id`);
    } catch (err) {
      problems.push(`the purge service rejected (${messageOf(err)})`);
    }
    const diff = snapshotDiff(before, await treeSnapshot(input.base.fs, run.root));
    if (diff.length > 0) problems.push(`the refused purge changed the tree: ${diff.join('; ')}`);
    return { problems };
  });
}

/** `unknown-layout-refuses`: on a store of an unknown layout, planPurge refuses and purgeArtifacts removes nothing. */
export function unknownLayoutRefuses(input: LawInput): Promise<LawOutcome> {
  return input.withStage(async (run) => {
    const ids = run.layout.refusedIds ?? run.layout.ids;
    if (ids.length === 0) return { problems: ['the stage names no id in its unknown layout (refusedIds and ids are empty)'] };
    const { adapter } = run.adapter();
    const ctx = run.ctx();
    const problems: string[] = [];
    for (const id of ids) {
      const plan = await adapter.planPurge(id, ctx);
      if (plan.refused.length === 0) problems.push(`planPurge(${id}) refuses nothing on an unknown layout`);
      if (plan.artifacts.length > 0) problems.push(`planPurge(${id}) would remove ${show(plan.artifacts)} on an unknown layout`);
      const before = await treeSnapshot(input.base.fs, run.root);
      let removed: unknown;
      try {
        removed = await adapter.purgeArtifacts(id, ctx);
      } catch (err) {
        removed = `a rejection (${messageOf(err)})`;
      }
      if (!Array.isArray(removed) || removed.length > 0) problems.push(`purgeArtifacts(${id}) answered ${show(removed)} on an unknown layout`);
      const diff = snapshotDiff(before, await treeSnapshot(input.base.fs, run.root));
      if (diff.length > 0) problems.push(`purgeArtifacts(${id}) changed the tree: ${diff.join('; ')}`);
    }
    return { problems };
  });
}

/** For an agent defined outside the package: a `PurgeService` that knows it (the way its users will purge it). */
function outsideService(adapter: AgentAdapter): ((ports: Ports) => AgentContractPurgeService) | undefined {
  // createAdapter sets the whole definition (the type promises its facts only); the service checks it.
  const definition = adapter.definition as AgentDefinition<string> | undefined;
  if (definition === undefined || isAgentName(adapter.name) || definition.name !== adapter.name) return undefined;
  return (ports) => new PurgeService<string>({ ports, agents: [definition] });
}
