import type { FileSystemPort } from '../../ports/fs.js';
import { lookAtRoot } from '../common/store-root.js';
import type { StoreReport } from '../types.js';
import { conversationsOf, projectChats } from './gemini-chats.js';
import type { GeminiHome } from './gemini-home.js';
import { geminiProjects } from './gemini-projects.js';

/**
 * A read-only look at a Gemini CLI root (`<GEMINI_CLI_HOME>/.gemini`, else `<home>/.gemini`) without running the CLI:
 * projects, chat files and conversations, and problems (a linked `tmp/` or project dir, a project naming no workspace,
 * unreadable chat files, chat files of a layout the library does not read; a root that does not list or an inspection that
 * failed is `readable: false`). `antigravity-cli/` (agy's) is never looked at. Never rejects.
 * @public
 */
export async function inspectGeminiHome(fs: FileSystemPort, home: GeminiHome): Promise<StoreReport> {
  if (home.kind === 'refused') return { agent: 'gemini', presence: 'present', root: home.value, layout: null, known: false, counts: {}, problems: [home.reason] };
  const report: StoreReport = { agent: 'gemini', presence: 'absent', root: home.root, layout: null, known: null, counts: {}, problems: [] };
  try {
    const root = await lookAtRoot(fs, home.root);
    if (root.kind === 'absent') return report;
    if (root.kind === 'unreadable') return { ...report, presence: 'present', problems: [root.problem], readable: false };
    const tmpKind = await fs.lstat(home.tmp).then((s) => s.kind, () => null);
    if (tmpKind === null) return report;
    report.presence = 'present';
    if (tmpKind !== 'dir') {
      report.known = false;
      report.problems.push(`${home.tmp}: not a directory${tmpKind === 'symlink' ? ' (a symbolic link: not followed, purges find nothing)' : ''}`);
      return report;
    }
    report.layout = 'tmp/<project>/chats/session-*.jsonl';
    report.known = true;
    const projects = await geminiProjects(fs, home.root);
    report.counts['projects'] = projects.length;
    let files = 0;
    let conversations = 0;
    for (const p of projects) {
      if (p.link) {
        report.problems.push(`${p.dir}: a project dir that is a symbolic link: not followed`);
        continue;
      }
      if (p.workspace === null) report.problems.push(`${p.dir}: names no workspace (no .project_root, no projects.json entry)`);
      const { chats, problems, unknown } = await projectChats(fs, p);
      files += chats.length;
      conversations += conversationsOf(chats).length;
      report.problems.push(...problems);
      for (const u of unknown) {
        report.known = false;
        report.problems.push(`${u.path}: a chat file of a layout the library does not read: a purge of a conversation it names refuses`);
      }
    }
    report.counts['chat files'] = files;
    report.counts['conversations'] = conversations;
  } catch (err) {
    report.readable = false;
    report.problems.push(`${home.root}: could not be inspected (${err instanceof Error ? err.message : String(err)})`);
  }
  return report;
}
