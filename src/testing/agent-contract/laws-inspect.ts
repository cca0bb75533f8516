import { join } from 'node:path';
import type { HomeDiscoveryContext } from '../../agents/types.js';
import { type LawInput, type LawOutcome, messageOf } from './law-outcome.js';

// The stage's env with every path under `from` moved under `to`.
function movedEnv(env: Record<string, string | undefined> | undefined, from: string, to: string): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = { HOME: to };
  for (const [k, v] of Object.entries(env ?? {})) out[k] = v === undefined ? v : v.split(from).join(to);
  return out;
}

/** `inspect-never-rejects`: inspect resolves on the stage, on an empty home, and on a home whose agent dirs are files. */
export function inspectNeverRejects(input: LawInput): Promise<LawOutcome> {
  return input.withStage(async (run) => {
    const { adapter } = run.adapter();
    if (adapter.inspect === undefined) return { problems: [], remark: 'no inspect' };
    const { fs } = input.base;
    const { layout } = run;
    const empty = join(run.root, 'contract-empty-home');
    await fs.mkdir(empty, { recursive: true });
    // Every top-level entry of the stage's home again, as a plain file where the adapter expects a tree.
    const garbled = join(run.root, 'contract-garbled-home');
    await fs.mkdir(garbled, { recursive: true });
    for (const e of await fs.readdir(layout.home)) await fs.writeFile(join(garbled, e.name), 'not what the agent wrote\n');
    const homes: Array<[string, HomeDiscoveryContext]> = [
      ['the stage', run.ctx()],
      ['an empty home', { workspace: layout.workspace, home: empty, env: movedEnv(layout.env, layout.home, empty) }],
      ['a home whose entries are files', { workspace: layout.workspace, home: garbled, env: movedEnv(layout.env, layout.home, garbled) }],
    ];
    const problems: string[] = [];
    for (const [label, ctx] of homes) {
      try {
        const report = await adapter.inspect(ctx);
        if (typeof report !== 'object' || report === null) problems.push(`inspect on ${label} answered ${String(report)}`);
      } catch (err) {
        problems.push(`inspect rejected on ${label} (${messageOf(err)})`);
      }
    }
    return { problems };
  });
}
