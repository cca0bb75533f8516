// Random links planted in a real agent stage: some of a conversation's artifacts, or dirs above them, replaced by a
// link to a dir outside (holding the real content, so a purge that followed the link would delete it), to a file,
// or to nothing. A purge then never mutates through a link or outside the home, and everything outside is unchanged.
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { expect } from 'vitest';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { RecordingFileSystem } from '../../src/testing/fs/recording-file-system.js';
import { type FaultStage, faultService } from './fault-stages.js';
import { cleanRun, entryPath } from './fault-sweep.js';
import { strs } from './artifact-strings.js';

// Where each agent's artifacts are found (adapters.md: a root may itself be a link, and is resolved): links are
// planted only strictly below these.
const ROOTS: Record<string, readonly string[]> = {
  claude: ['.claude', '.claude/projects'],
  codex: ['.codex', '.codex/sessions'],
  opencode: ['.local/share/opencode'],
  agy: ['.gemini/antigravity-cli'],
};

/** The agent's base dir under the home, below which every link site is. */
export function agentBase(stage: FaultStage): string {
  return join(stage.home, ROOTS[stage.agent]?.[0] ?? '.');
}

/** The dirs and files a link can replace: the artifacts of a clean purge and every dir between the agent's roots and them. */
export async function linkSites(stage: FaultStage): Promise<string[]> {
  const roots = (ROOTS[stage.agent] ?? []).map((r) => join(stage.home, r));
  const base = agentBase(stage);
  const clean = await cleanRun(stage);
  const paths = clean.result.kind === 'purged' ? strs(clean.result.purged).map(entryPath).filter((p): p is string => p !== null) : [];
  const sites = new Set<string>();
  for (const p of paths) {
    for (let cur = p; cur.startsWith(base + sep); cur = dirname(cur)) if (!roots.includes(cur)) sites.add(cur);
  }
  return [...sites].sort();
}

function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      const rel = relative(dir, p);
      if (e.isSymbolicLink()) out.push(`${rel} -> ${readlinkSync(p)}`);
      else if (e.isDirectory()) {
        out.push(`${rel}/`);
        walk(p);
      } else out.push(`${rel} ${createHash('sha256').update(readFileSync(p)).digest('hex')}`);
    }
  };
  walk(dir);
  return out;
}

// Why a mutation, seen just before it runs, is not confined to the agent's base dir; null when it is.
function violation(home: string, realHome: string, path: string): string | null {
  if (!path.startsWith(home + sep)) return `outside ${home}: ${path}`;
  let cur = home;
  for (const part of path.slice(home.length + 1).split(sep).slice(0, -1)) {
    cur = join(cur, part);
    try {
      if (!lstatSync(cur).isDirectory()) return `through a non-directory ${cur}`;
    } catch {
      return null; // a missing component: the call fails on its own
    }
  }
  const parent = realpathSync(dirname(path));
  return parent === realHome || parent.startsWith(realHome + sep) ? null : `parent resolves outside: ${parent}`;
}

const KINDS = ['dir', 'file', 'dangling'] as const;

/** Runs the property for `numRuns` plantings on `stage` (whose link sites are `sites`). */
export async function checkPlantedLinks(stage: FaultStage, sites: readonly string[], numRuns: number): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'mam-fault-links-'));
  try {
    await fc.assert(
      fc.asyncProperty(fc.subarray([...sites], { minLength: 1, maxLength: 3 }), fc.array(fc.constantFrom(...KINDS), { minLength: 3, maxLength: 3 }), async (chosen, kinds) => {
        stage.restore();
        const outside = join(scratch, 'outside');
        rmSync(outside, { recursive: true, force: true });
        mkdirSync(outside);
        const planted: string[] = [];
        chosen.forEach((site, i) => {
          if (planted.some((p) => site.startsWith(p + sep))) return; // already behind a link
          const target = join(outside, String(i));
          const kind = kinds[i] ?? 'dir';
          if (kind === 'dir') renameSync(site, target);
          else if (kind === 'file') writeFileSync(target, 'outside, not yours');
          rmSync(site, { recursive: true, force: true });
          symlinkSync(kind === 'dangling' ? join(outside, 'nothing') : target, site);
          planted.push(site);
        });
        const before = snapshot(outside);
        const agentDir = agentBase(stage);
        const realBase = realpathSync(agentDir);
        const bad: string[] = [];
        const fs = new RecordingFileSystem(new NodeFileSystem(), {
          failAt: (m) => {
            const why = violation(agentDir, realBase, m.path);
            if (why !== null) bad.push(`${m.op}: ${why}`);
            return null;
          },
        });
        const result = await faultService(stage, fs).purge(stage.agent, stage.id, { home: stage.home, workspace: stage.workspace, env: stage.env });
        // Every kind but a thrown error is an answer: the new refusals (not of the workspace, refused, changed) remove nothing.
        expect(['purged', 'partial', 'in-use', 'unresolved', 'not-in-workspace', 'refused', 'changed']).toContain(result.kind);
        expect(bad, planted.join(', ')).toEqual([]);
        expect(snapshot(outside), planted.join(', ')).toEqual(before);
      }),
      { numRuns },
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
