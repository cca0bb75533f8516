// A tiny agent defined as an outside developer would (defineAgent + pathPurge), for the open-door tests: "notes" keeps
// each conversation as `<home>/.notes/sessions/<uuid>.json` holding `{ id, cwd, updatedAt }`.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { type AgentDefinition, defineAgent } from '../../src/agents/contract/agent-definition.js';
import type { AgentStore } from '../../src/agents/contract/agent-store.js';
import { pathPurge } from '../../src/agents/contract/path-purge.js';
import type { HomeDiscoveryContext } from '../../src/agents/types.js';
import type { Ports } from '../../src/ports/index.js';
import { helperChain } from '../../src/process/helper-chain.js';
import { processesNaming } from '../../src/process/processes-naming.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Note {
  id: string;
  cwd: string;
  updatedAt: number;
}

const root = (ctx: HomeDiscoveryContext): string => join(ctx.home, '.notes');
const sessions = (ctx: HomeDiscoveryContext): string => join(root(ctx), 'sessions');
const fileOf = (id: string, ctx: HomeDiscoveryContext): string => join(sessions(ctx), `${id}.json`);

function notesStore(ports: Ports): AgentStore {
  const read = async (path: string): Promise<Note | null> => {
    try {
      const n = JSON.parse(await ports.fs.readText(path)) as Note;
      return typeof n.id === 'string' && typeof n.cwd === 'string' && typeof n.updatedAt === 'number' ? n : null;
    } catch {
      return null;
    }
  };
  const all = async (ctx: HomeDiscoveryContext): Promise<Note[]> => {
    const names = await ports.fs.readdir(sessions(ctx)).catch(() => []);
    const notes = await Promise.all(names.filter((e) => e.name.endsWith('.json')).map((e) => read(join(sessions(ctx), e.name))));
    return notes.filter((n): n is Note => n !== null);
  };
  return {
    async discover(ctx) {
      const mine = (await all(ctx)).filter((n) => n.cwd === ctx.workspace && (ctx.epoch === undefined || n.updatedAt >= ctx.epoch * 1000));
      return mine.sort((a, b) => b.updatedAt - a.updatedAt).map((n) => n.id);
    },
    async verifyMany(queries, ctx) {
      return Promise.all(queries.map(async (q) => (await read(fileOf(q.id, ctx)))?.cwd === q.workspace));
    },
    async holders(id) {
      const table = await ports.proc.snapshot();
      const self = new Set(helperChain(table, ports.proc.selfPid()).chain);
      return processesNaming(table, [id], self).map((p) => ({ pid: p.pid, command: p.command, signal: 'command-line' as const }));
    },
    ...pathPurge(ports.fs, { agent: 'notes', artifactPaths: async (id, ctx) => [{ root: root(ctx), path: fileOf(id, ctx) }] }),
    async mentions() {
      return [];
    },
    async inspect(ctx) {
      const there = await ports.fs.stat(sessions(ctx)).then(() => true, () => false);
      return { agent: 'notes', presence: there ? 'present' : 'absent', root: root(ctx), layout: there ? 'notes-v1' : null, known: there ? true : null, counts: there ? { sessions: (await all(ctx)).length } : {}, problems: [] };
    },
  };
}

/** The "notes" agent. */
export const notes: AgentDefinition<'notes'> = defineAgent({
  name: 'notes',
  ownKey: 'notes_session_id_own',
  idLifecycle: 'pre_assigned',
  ids: { shape: 'uuid', canonical: (id) => (UUID.test(id) ? id.toLowerCase() : null), caseInsensitive: true },
  sessionEnvVars: ['NOTES_SESSION_ID'],
  launch: { args: (id) => (id === null ? [] : ['--session', id]), resumeArgs: (id) => ['--resume', id], mintId: () => randomUUID() },
  reads: { kind: 'files' },
  store: (ports) => notesStore(ports),
});

/** Writes one notes conversation under `home`; returns its id. */
export async function writeNote(fs: Ports['fs'], home: string, cwd: string, updatedAt: number, id: string = randomUUID()): Promise<string> {
  await fs.mkdir(join(home, '.notes', 'sessions'), { recursive: true });
  await fs.writeFile(join(home, '.notes', 'sessions', `${id}.json`), JSON.stringify({ id, cwd, updatedAt }));
  return id;
}
