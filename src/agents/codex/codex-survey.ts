import type { FileSystemPort } from '../../ports/fs.js';
import type { LeftArtifact } from '../../purge/artifact.js';
import type { ArtifactPath } from '../common/artifacts.js';
import { codexArtifacts, type CodexArtifacts } from './codex-artifacts.js';
import { codexDbs } from './codex-dbs.js';
import type { CodexHome } from './codex-home.js';
import { inspectDb, type DbInspection } from './inspect-db.js';
import { refusals } from './layout-refusals.js';

/**
 * One look at everything a Codex home holds of one conversation: every database (schema, and the state DBs' `threads`
 * rows of the id), the files, and the reasons a purge must not run.
 * @public
 */
export interface CodexSurvey {
  home: CodexHome;
  dbs: DbInspection[];
  artifacts: CodexArtifacts;
  /** One line per state DB of an unknown layout (or unreadable): a purge removes nothing while there is any. */
  refusals: LeftArtifact[];
}

/**
 * Surveys the home for the canonical id (read-only; never throws for an unreadable file or database).
 * @public
 */
export async function surveyCodex(fs: FileSystemPort, home: CodexHome, id: string): Promise<CodexSurvey> {
  const dbs = await Promise.all((await codexDbs(fs, home)).map((d) => inspectDb(fs, d, id)));
  const recorded = dbs.flatMap((i) => (i.ok ? i.rows.map((r) => r.rolloutPath) : []));
  const artifacts = await codexArtifacts(fs, home, id, recorded);
  return { home, dbs, artifacts, refusals: refusals(dbs) };
}

/**
 * The survey's files in removal order: rollouts, shell snapshots, then the writer lock.
 * @public
 */
export function surveyPaths(s: CodexSurvey): ArtifactPath[] {
  return [...s.artifacts.rollouts, ...s.artifacts.snapshots, s.artifacts.lock];
}

/**
 * True when every state database of the survey has the known layout and a completed backfill (so a thread it lacks has
 * no rollout worth scanning for).
 * @public
 */
export function surveyTrusted(s: CodexSurvey): boolean {
  const states = s.dbs.filter((i) => i.db.state);
  return states.length > 0 && states.every((i) => i.ok && i.layout?.kind === 'known' && i.layout.complete);
}
