import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import { canonicalAgyId } from './agy-ids.js';
import { type AgyPaths, agySubagentRecordPath } from './agy-paths.js';
import type { AgyConversation } from './agy-survey.js';

async function names(fs: FileSystemPort, dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).map((e) => e.name);
  } catch {
    return [];
  }
}

// The children a parent's brain dir records (`.system_generated/subagents/<child>.json`).
async function recordedChildren(fs: FileSystemPort, p: AgyPaths, parent: string): Promise<string[]> {
  const dir = join(p.brain, parent, '.system_generated', 'subagents');
  // A linked dir on the way could list another tree's names (and hand unrelated conversations to a purge): not followed.
  for (const step of [join(p.brain, parent), join(p.brain, parent, '.system_generated'), dir]) {
    if ((await fs.lstat(step).then((s) => s.kind, () => null)) !== 'dir') return [];
  }
  const out: string[] = [];
  for (const name of await names(fs, dir)) {
    if (!name.endsWith('.json')) continue;
    const stem = name.slice(0, -5);
    if (canonicalAgyId(stem) === stem) out.push(stem);
  }
  return out;
}

/**
 * The subagent conversations below a canonical id, at any depth, deepest first (each child before its parent): the
 * conversations whose own record names it as parent (field 5), and the children its brain dir records (unless their
 * own record names another parent or none: a top-level conversation is never taken as a child). A cycle of
 * records ends at the first id seen again; the id itself is never in the answer. Never throws.
 * @public
 */
export async function agyDescendants(fs: FileSystemPort, p: AgyPaths, id: string, all: readonly AgyConversation[]): Promise<string[]> {
  const byParent = new Map<string, string[]>();
  for (const c of all) {
    const parent = c.cli?.parent ?? null;
    if (parent !== null && parent !== c.id) byParent.set(parent, [...(byParent.get(parent) ?? []), c.id]);
  }
  const byId = new Map(all.map((c) => [c.id, c]));
  const seen = new Set<string>([id]);
  const out: string[] = [];
  const visit = async (parent: string): Promise<void> => {
    // A child the parent's brain names is taken only when its own database does not name another parent (or none).
    const recorded = (await recordedChildren(fs, p, parent)).filter((kid) => {
      const own = byId.get(kid);
      return own === undefined || own.cli === null || own.cli.parent === parent;
    });
    const kids = [...new Set([...(byParent.get(parent) ?? []), ...recorded])].sort();
    for (const kid of kids) {
      if (seen.has(kid)) continue;
      seen.add(kid);
      await visit(kid);
      out.push(kid);
    }
  };
  await visit(id);
  return out;
}

/**
 * The parent-side records of a subagent (`brain/<parent>/.system_generated/subagents/<child>.json`) under every brain
 * dir that exists, as candidate paths (the caller checks each, links not followed). Never throws.
 * @public
 */
export async function agySubagentRecords(fs: FileSystemPort, p: AgyPaths, child: string): Promise<string[]> {
  const out: string[] = [];
  for (const parent of await names(fs, p.brain)) {
    if (parent === child || canonicalAgyId(parent) !== parent) continue;
    const path = agySubagentRecordPath(p, parent, child);
    if (await fs.lstat(path).then(() => true, () => false)) out.push(path);
  }
  return out;
}
