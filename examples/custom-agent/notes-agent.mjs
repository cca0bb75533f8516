// A third-party agent for @mam/core, written with the package's public entry point only: "notes" keeps each
// conversation as `<home>/.notes/sessions/<uuid>.json` holding `{ id, cwd, updatedAt }` (epoch milliseconds).
// This module is also what `mam … --agents examples/custom-agent/notes-agent.mjs` loads: its export is a definition.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { defineAgent, helperChain, pathPurge, processesNaming } from '@mam/core';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const root = (ctx) => join(ctx.home, '.notes');
const sessions = (ctx) => join(root(ctx), 'sessions');
const fileOf = (id, ctx) => join(sessions(ctx), `${id}.json`);

/**
 * The store over a set of ports: every read and removal goes through `ports.fs` and `ports.proc`, so the same code
 * runs on the real machine and on the test kit's fakes.
 * @param {import('@mam/core').Ports} ports
 * @returns {import('@mam/core').AgentStore}
 */
function notesStore(ports) {
  const read = async (path) => {
    try {
      const n = JSON.parse(await ports.fs.readText(path));
      return typeof n.id === 'string' && typeof n.cwd === 'string' && typeof n.updatedAt === 'number' ? n : null;
    } catch {
      return null; // missing or damaged: not a conversation
    }
  };
  const all = async (ctx) => {
    const entries = await ports.fs.readdir(sessions(ctx)).catch(() => []);
    const notes = await Promise.all(entries.filter((e) => e.name.endsWith('.json')).map((e) => read(join(sessions(ctx), e.name))));
    return notes.filter((n) => n !== null);
  };
  return {
    // The workspace's conversations, newest first (at or after ctx.epoch, in seconds, when given).
    async discover(ctx) {
      const mine = (await all(ctx)).filter((n) => n.cwd === ctx.workspace && (ctx.epoch === undefined || n.updatedAt >= ctx.epoch * 1000));
      return mine.sort((a, b) => b.updatedAt - a.updatedAt).map((n) => n.id);
    },
    // Is each id a conversation of its workspace on disk.
    async verifyMany(queries, ctx) {
      return Promise.all(queries.map(async (q) => (await read(fileOf(q.id, ctx)))?.cwd === q.workspace));
    },
    // A live process whose command line names the id holds the conversation (not the caller and its helper chain:
    // `mam purge notes <id>` names the id too).
    async holders(id) {
      const table = await ports.proc.snapshot();
      const self = new Set(helperChain(table, ports.proc.selfPid()).chain);
      return processesNaming(table, [id], self).map((p) => ({ pid: p.pid, command: p.command, signal: 'command-line' }));
    },
    // plan, execute and residual of a store made of paths: confined, fd-anchored removals.
    ...pathPurge(ports.fs, { agent: 'notes', artifactPaths: async (id, ctx) => [{ root: root(ctx), path: fileOf(id, ctx) }] }),
    async mentions() {
      return [];
    },
    async inspect(ctx) {
      const there = await ports.fs.stat(sessions(ctx)).then(() => true, () => false);
      if (!there) return { agent: 'notes', presence: 'absent', root: root(ctx), layout: null, known: null, counts: {}, problems: [] };
      return { agent: 'notes', presence: 'present', root: root(ctx), layout: 'notes-v1', known: true, counts: { sessions: (await all(ctx)).length }, problems: [] };
    },
  };
}

/** The "notes" agent. */
export const notes = defineAgent({
  name: 'notes',
  ownKey: 'notes_session_id_own',
  idLifecycle: 'pre_assigned',
  ids: { shape: 'uuid', canonical: (id) => (UUID.test(id) ? id.toLowerCase() : null), caseInsensitive: true },
  sessionEnvVars: ['NOTES_SESSION_ID'],
  launch: { args: (id) => (id === null ? [] : ['--session', id]), resumeArgs: (id) => ['--resume', id], mintId: () => randomUUID() },
  reads: { kind: 'files' },
  store: (ports) => notesStore(ports),
});

/** Writes one notes conversation (what the notes CLI would leave); returns its id. */
export async function writeNote(fs, home, cwd, updatedAt, id = randomUUID()) {
  await fs.mkdir(join(home, '.notes', 'sessions'), { recursive: true });
  await fs.writeFile(join(home, '.notes', 'sessions', `${id}.json`), JSON.stringify({ id, cwd, updatedAt }));
  return id;
}
