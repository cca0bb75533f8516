import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import { appendLines, dataDir, mkdirp, readObject, type SeedPlan, writeWhole } from './seed-layout.js';

// The project short name Gemini CLI 0.61 derives from a cwd: the basename lower-cased, runs of anything else than
// [a-z0-9] turned into `-`, trimmed; a name another directory holds gets `-1`, `-2` … in registration order.
function shortName(cwd: string, taken: ReadonlyMap<string, string>): string {
  const base = basename(cwd).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'project';
  const used = new Set(taken.values());
  let name = base;
  for (let n = 1; used.has(name); n += 1) name = `${base}-${n}`;
  return name;
}

/**
 * Gemini CLI 0.61 after a finished headless run (test/fixtures/real/gemini/01-one-session): `projects.json` naming the
 * cwd's short name, `tmp/<short>/.project_root` and `history/<short>/.project_root`, and the chat file
 * `tmp/<short>/chats/session-<YYYY-MM-DDTHH-MM>-<8 hex>.jsonl` (a metadata line, the prompt, the answer).
 */
export function seedGemini(plan: SeedPlan): void {
  const root = mkdirp(dataDir(plan, 'GEMINI_CLI_HOME', '.gemini', '.gemini'));
  const projectsFile = join(root, 'projects.json');
  const recorded = readObject(projectsFile)['projects'];
  const projects = new Map<string, string>(
    typeof recorded === 'object' && recorded !== null ? Object.entries(recorded).filter((e): e is [string, string] => typeof e[1] === 'string') : [],
  );
  const short = projects.get(plan.cwd) ?? shortName(plan.cwd, projects);
  if (!projects.has(plan.cwd)) {
    projects.set(plan.cwd, short);
    writeWhole(projectsFile, JSON.stringify({ projects: Object.fromEntries(projects) }, null, 2));
  }
  const dir = mkdirp(join(root, 'tmp', short));
  writeWhole(join(dir, '.project_root'), plan.cwd);
  writeWhole(join(mkdirp(join(root, 'history', short)), '.project_root'), plan.cwd);
  const at = new Date(plan.now).toISOString();
  const done = new Date(plan.now + 1200).toISOString();
  const stamp = at.slice(0, 16).replace(':', '-');
  const meta = { sessionId: plan.id, projectHash: createHash('sha256').update(plan.cwd).digest('hex'), startTime: at, lastUpdated: at, kind: 'main' };
  appendLines(join(dir, 'chats', `session-${stamp}-${plan.id.slice(0, 8)}.jsonl`), [
    meta,
    { id: `${plan.id.slice(0, 8)}-u`, timestamp: at, type: 'user', content: [{ text: plan.prompt }] },
    { id: `${plan.id.slice(0, 8)}-g`, timestamp: done, type: 'gemini', content: 'ok', model: 'gemini-2.5-flash' },
    { $set: { lastUpdated: done } },
  ]);
}
