import type { FileStat, FileSystemPort } from '../../ports/fs.js';
import type { StateClock } from '../../sqlite/state-clock.js';
import { type DirectoryMatcher, directoryMatcher, realpathMemo } from '../common/same-directory.js';
import type { HermesConversation } from './hermes-conversation.js';
import { hermesPaths, hermesStores } from './hermes-paths.js';
import { type HermesVerifyQuery, hermesVerifyMany } from './hermes-verify-many.js';

/**
 * One canonical id of a Hermes verification and the workspace it is checked against ({@link hermesVerifyBatch}).
 * @public
 */
export interface HermesBatchQuery {
  /** The canonical session id. */
  id: string;
  /** The workspace the conversation must be of. */
  workspace: string;
}

/**
 * Options of {@link hermesVerifyBatch}.
 * @public
 */
export interface HermesBatchOptions {
  /** The ports' clock (see `rememberedProbe`). */
  now?: StateClock | undefined;
  /** Discover mode: true when another row claims the conversation, which then never verifies. */
  refuses?: ((conv: HermesConversation) => boolean) | undefined;
  /** The caller's look at a store's directory, taken as the read starts (see `OpenReadonlyOptions.dirLook`). */
  dirLook?: ((dbPath: string) => PromiseLike<FileStat | null> | undefined) | undefined;
}

/**
 * Whether a conversation is of the workspace a matcher stands for: its root's or its tip's `cwd`, `git_repo_root` or ACP
 * cwd names it (as written, or resolving to it).
 * @public
 */
export async function conversationOfWorkspace(conv: HermesConversation, here: DirectoryMatcher): Promise<boolean> {
  for (const s of [conv.root, conv.tip]) {
    for (const dir of [s.cwd, s.gitRepoRoot, s.configCwd]) if (dir !== null && (await here.matches(dir))) return true;
  }
  return false;
}

/**
 * Verifies canonical ids against their workspaces in every store of the home, in order: the active one read first,
 * the others listed and read only for what it leaves undecided ({@link hermesVerifyMany}); each distinct (id, workspace) pair answered once, each workspace's
 * matcher built once, and every directory (workspace or recorded) resolved at most once for the whole batch — the rule
 * itself unchanged (a recorded directory that resolves to the workspace is the workspace). Never throws.
 * @public
 */
export async function hermesVerifyBatch(
  fs: FileSystemPort,
  home: string,
  env: Readonly<Record<string, string | undefined>>,
  queries: readonly HermesBatchQuery[],
  opts: HermesBatchOptions = {},
): Promise<boolean[]> {
  try {
    // The stores are listed only when the active one leaves a query undecided (see hermesVerifyMany).
    const dbs = (): Promise<string[]> => hermesStores(fs, home, env).then((all) => all.map((s) => s.db));
    const real = realpathMemo(fs);
    const matchers = new Map<string, Promise<DirectoryMatcher>>();
    const slots = new Map<string, number>();
    const batch: HermesVerifyQuery[] = [];
    const at = queries.map((qy) => {
      const key = `${qy.id}\0${qy.workspace}`;
      let k = slots.get(key);
      if (k !== undefined) return k;
      let m = matchers.get(qy.workspace);
      if (m === undefined) {
        matchers.set(qy.workspace, (m = directoryMatcher(fs, qy.workspace, real)));
        m.catch(() => undefined);
      }
      const here = m;
      slots.set(key, (k = batch.length));
      batch.push({ id: qy.id, ofWorkspace: async (conv) => conversationOfWorkspace(conv, await here), refuses: opts.refuses });
      return k;
    });
    const answers = await hermesVerifyMany(fs, dbs, batch, { first: hermesPaths(home, env).db, now: opts.now, dirLook: opts.dirLook });
    return at.map((k) => answers[k] === true);
  } catch {
    return queries.map(() => false);
  }
}
