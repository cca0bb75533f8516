import type { VerifyQuery } from '../../agents/types.js';
import { type LawInput, type LawOutcome, messageOf, missing, show, unknownLike } from './law-outcome.js';

// Each workspace of the stage with the ids it holds.
function workspaces(layout: { workspace: string; ids: string[]; otherWorkspace?: { workspace: string; ids: string[] } }): Array<{ workspace: string; ids: string[] }> {
  return [{ workspace: layout.workspace, ids: layout.ids }, ...(layout.otherWorkspace === undefined ? [] : [layout.otherWorkspace])];
}

/** `discover-verifies`: every id discover offers verifies in its workspace. */
export function discoverVerifies(input: LawInput): Promise<LawOutcome> {
  return input.withStage(async (run) => {
    const { adapter } = run.adapter();
    const problems: string[] = [];
    for (const w of workspaces(run.layout)) {
      const ctx = run.ctx(w.workspace);
      const offered = await adapter.discover(ctx);
      for (const id of offered) if ((await adapter.verifyArtifact(id, ctx)) !== true) problems.push(`discover offered ${id} in ${w.workspace}, but it does not verify there`);
    }
    return { problems };
  });
}

/** `discover-offers-ids`: discover offers exactly the stage's ids, in each workspace. */
export function discoverOffersIds(input: LawInput): Promise<LawOutcome> {
  return input.withStage(async (run) => {
    const { adapter } = run.adapter();
    const problems: string[] = [];
    for (const w of workspaces(run.layout)) {
      const offered = await adapter.discover(run.ctx(w.workspace));
      const lacking = missing(w.ids, offered);
      const extra = missing(offered, w.ids);
      if (lacking.length > 0) problems.push(`discover in ${w.workspace} does not offer ${show(lacking)}`);
      if (extra.length > 0) problems.push(`discover in ${w.workspace} offers ${show(extra)}, which the stage does not list`);
    }
    return { problems };
  });
}

/** `verify-many-agrees`: verifyMany answers what verifyArtifact answers for each id, in order. */
export function verifyManyAgrees(input: LawInput): Promise<LawOutcome> {
  return input.withStage(async (run) => {
    const { adapter } = run.adapter();
    if (adapter.verifyMany === undefined) return { problems: [], remark: 'no verifyMany (callers fall back to verifyArtifact)' };
    const { layout } = run;
    const other = layout.otherWorkspace;
    const known = [...layout.ids, ...(other?.ids ?? []), ...(layout.refusedIds ?? [])];
    const queries: VerifyQuery[] = [
      ...known.map((id) => ({ id })),
      ...known.slice(0, 2).map((id) => ({ id: unknownLike(id) })),
      { id: '../x' },
      { id: '' },
      ...(other === undefined ? [] : other.ids.map((id) => ({ id, workspace: other.workspace }))),
      ...layout.ids.slice(0, 1).map((id) => ({ id, workspace: other?.workspace ?? run.root })),
    ];
    const ctx = run.ctx();
    const each: boolean[] = [];
    for (const q of queries) each.push(await adapter.verifyArtifact(q.id, q.workspace === undefined ? ctx : run.ctx(q.workspace)));
    let many: unknown;
    try {
      many = await adapter.verifyMany(queries, ctx);
    } catch (err) {
      return { problems: [`verifyMany rejected (${messageOf(err)})`] };
    }
    if (!Array.isArray(many) || many.length !== queries.length) return { problems: [`verifyMany answered ${show(many)} for ${queries.length} queries`] };
    const problems = queries.flatMap((q, i) =>
      many[i] === each[i] ? [] : [`verifyMany says ${show(many[i])} for ${show(q)}, verifyArtifact says ${each[i]}`],
    );
    return { problems };
  });
}
