import { join } from 'node:path';
import { writeFileAtomic } from '../atomic/atomic-write.js';
import { readJsonFile } from '../atomic/read-json-file.js';
import { isPortError } from '../errors.js';
import { agentsOf, type RegistryAgentsOption } from '../registry/registry-agents.js';
import type { AgentCatalog } from '../agents/outside-agents.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystemPort } from '../ports/fs.js';
import { realpathLenient } from '../registry/realpath-lenient.js';
import { ResetSpecError } from './reset-spec-error.js';
import type { ResetTarget } from './reset-target.js';

/**
 * The saved reset spec: what a run resumes from.
 * @public
 */
export interface ResetSpec {
  /** Spec format version; always 1. */
  version: 1;
  /** The workspace it was written for; a spec naming another workspace (by realpath) is refused. */
  workspace: string;
  /** When it was written, ISO 8601 UTC from the Clock port (`written_at` in the file). */
  writtenAt: string;
  /** The targets, in the order the run handles them; an entry's `oldId` may be filled in later. */
  agents: ResetTarget[];
}

// The file's keys are the reference tool's (snake_case): the reference system and earlier versions read and rerun it.
interface SpecFileEntry {
  name: string;
  agent: string;
  role: string;
  herdr_server: string;
  herdr_workspace: string;
  old_id: string | null;
  old_created_at: string | null;
}

function fileEntryOf(t: ResetTarget): SpecFileEntry {
  return { name: t.name, agent: t.agent, role: t.role, herdr_server: t.herdrServer, herdr_workspace: t.herdrWorkspace, old_id: t.oldId, old_created_at: t.oldCreatedAt };
}

/**
 * The path of a workspace's reset spec, `<workspace>/.mam/reset-spec.json`.
 * @public
 */
export function resetSpecPath(workspace: string): string {
  return join(workspace, '.mam', 'reset-spec.json');
}

const TEXT_FIELDS = ['name', 'agent', 'role', 'herdr_server', 'herdr_workspace'] as const;

function entryOf(raw: unknown, i: number, path: string, known: AgentCatalog<string>): ResetTarget {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ResetSpecError(path, `agents[${i}] is not an object`);
  const o = raw as Record<string, unknown>;
  for (const k of TEXT_FIELDS) {
    if (typeof o[k] !== 'string') throw new ResetSpecError(path, `agents[${i}].${k} is not a string`);
  }
  if (!known.knows(o['agent'])) throw new ResetSpecError(path, `unknown agent ${JSON.stringify(o['agent'])} for ${JSON.stringify(o['name'])}`);
  if ((o['name'] as string) === '' || (o['role'] as string).trim() === '') throw new ResetSpecError(path, `agents[${i}] has an empty name or role`);
  for (const k of ['old_id', 'old_created_at'] as const) {
    if (o[k] !== null && (typeof o[k] !== 'string' || o[k] === '')) throw new ResetSpecError(path, `agents[${i}].${k} is neither a string nor null`);
  }
  return {
    name: o['name'] as string,
    agent: o['agent'] as ResetTarget['agent'],
    role: o['role'] as string,
    herdrServer: o['herdr_server'] as string,
    herdrWorkspace: o['herdr_workspace'] as string,
    oldId: o['old_id'] as string | null,
    oldCreatedAt: o['old_created_at'] as string | null,
  };
}

/**
 * Reads the saved spec strictly (null when there is none): a corrupt file, another version or workspace, a duplicate
 * name or an unknown agent (neither a built-in one nor one of `opts.agents`) throws a {@link ResetSpecError}, and the
 * file is never touched.
 * @public
 */
export async function readResetSpec(fs: FileSystemPort, workspace: string, opts: RegistryAgentsOption<string> = {}): Promise<ResetSpec | null> {
  const known = agentsOf(opts);
  const path = resetSpecPath(workspace);
  const read = await readJsonFile(fs, path, (cause) => new ResetSpecError(path, 'the file is corrupt (not JSON)', { cause }));
  if (read === null) return null;
  const body = read.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ResetSpecError(path, 'the file is corrupt (not an object)');
  const o = body as Record<string, unknown>;
  if (o['version'] !== 1) throw new ResetSpecError(path, `version ${JSON.stringify(o['version'])} is not 1`);
  const root = await realpathLenient(fs, workspace);
  if (typeof o['workspace'] !== 'string' || (await realpathLenient(fs, o['workspace'])) !== root) {
    throw new ResetSpecError(path, `it belongs to another workspace (${JSON.stringify(o['workspace'])}, not ${JSON.stringify(root)})`);
  }
  if (!Array.isArray(o['agents'])) throw new ResetSpecError(path, 'agents is not a list');
  const agents = o['agents'].map((a, i) => entryOf(a, i, path, known));
  const names = new Set<string>();
  for (const a of agents) {
    if (names.has(a.name)) throw new ResetSpecError(path, `${JSON.stringify(a.name)} appears twice`);
    names.add(a.name);
  }
  return { version: 1, workspace: root, writtenAt: typeof o['written_at'] === 'string' ? o['written_at'] : '', agents };
}

/**
 * Writes the spec atomically (a crash leaves the old file or the new one, never a torn one) and returns what it wrote.
 * @public
 */
export async function writeResetSpec(fs: FileSystemPort, clock: Clock, workspace: string, agents: readonly ResetTarget[]): Promise<ResetSpec> {
  const spec: ResetSpec = {
    version: 1,
    workspace: await realpathLenient(fs, workspace),
    writtenAt: new Date(clock.now()).toISOString(),
    agents: agents.map((a) => ({ ...a })),
  };
  await saveResetSpec(fs, workspace, spec);
  return spec;
}

/**
 * The spec file's text for `spec`: the reference tool's snake_case keys (`written_at`, `herdr_server`, `old_id` …), in
 * the order earlier versions wrote them.
 * @public
 */
export function resetSpecText(spec: ResetSpec): string {
  const file = { version: spec.version, workspace: spec.workspace, written_at: spec.writtenAt, agents: spec.agents.map(fileEntryOf) };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/**
 * Replaces the saved spec atomically with `spec` as given (how `recordId` persists an id), in the file's snake_case keys.
 * @public
 */
export async function saveResetSpec(fs: FileSystemPort, workspace: string, spec: ResetSpec): Promise<void> {
  await writeFileAtomic(fs, resetSpecPath(workspace), resetSpecText(spec));
}

/**
 * Removes the spec (once everything is done); a missing file is fine.
 * @public
 */
export async function removeResetSpec(fs: FileSystemPort, workspace: string): Promise<void> {
  try {
    await fs.unlink(resetSpecPath(workspace));
  } catch (err) {
    if (!isPortError(err, 'NotFound')) throw err;
  }
}
