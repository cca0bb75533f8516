// The agent contract (`describeAgentContract` of @mam/core/testing) run against every built-in agent, over stages built
// from the fixtures the real CLIs wrote (test/fixtures/real) and the derived ones (grok, agy), plus a store of an unknown
// layout where one is known. Built-in agents also purge through PurgeService for the live-holder law.
import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { getAdapter } from '../../src/agents/get-adapter.js';
import type { AgentName } from '../../src/ids/agent-names.js';
import type { Ports } from '../../src/ports/index.js';
import { PurgeService } from '../../src/purge/purge-service.js';
import { type AgentContractStage, describeAgentContract, type StageLayout } from '../../src/testing/index.js';
import { materialiseAgyDerived } from '../helpers/adapter-agy-derived.js';
import { materializeGrokStage } from '../helpers/adapter-grok-stage.js';
import { IDS as HERMES_IDS, materializeHermesStage } from '../helpers/adapter-hermes-real.js';
import { sesId, UNKNOWN_SCHEMA, writeDb } from '../helpers/adapter-opencode-db.js';
import { materializeStage } from '../helpers/real-stage.js';

// Runs SQL on a database file in place (a layout the adapter does not know).
function execSql(path: string, sql: readonly string[]): void {
  const db = new Database(path);
  try {
    for (const s of sql) db.exec(s);
  } finally {
    db.close();
  }
}

// A stage of test/fixtures/real: `ws` holds `ids`, `other` holds `otherIds` (workspace names relative to the root).
function realStage(name: string, fixture: string, ws: string, ids: string[], other?: [string, string[]], extra: Partial<StageLayout> = {}): AgentContractStage {
  return {
    name,
    async build(root) {
      const s = materializeStage(fixture, root);
      const bin = join(root, 'empty-bin');
      mkdirSync(bin, { recursive: true });
      return {
        home: s.home,
        workspace: join(root, ws),
        env: { ...s.env, PATH: bin },
        ids,
        ...(other === undefined ? {} : { otherWorkspace: { workspace: join(root, other[0]), ids: other[1] } }),
        ...extra,
      };
    },
  };
}

const CLAUDE = { ids: ['94849f2b-9545-4e05-8416-865e3eb95515', '1286deb1-4449-4738-ba2e-11b172ab58a7'], other: ['ws claude.v2_ü@x', ['4a73f8b1-19ea-4a91-95e7-d65af37e84a7']] as [string, string[]] };
const CODEX_A = '01a229e1-babe-7660-ab96-63d71c4bdf06';
const CODEX_B = '01a229e4-5cbc-7f60-86ff-abaf22a4b8e4';
const OPENCODE_A = 'ses_dd615360cffeFzbK9W1oQVbVv9';
const OPENCODE_B = 'ses_dd6159fa8ffeNLy5GqcBDiUnlX';
const GROK = { a1: '01a05c69-4d7b-71a1-8a1a-0000000000a1', a2: '01a05ca0-3bfb-72a2-8a2a-0000000000a2', b1: '01a05cd7-2a7b-74b1-8b1b-0000000000b1' };
const GEMINI = { ws: '165710fc-8d90-4736-9043-383cdacc99f5', other: '11e4ad92-39ee-4595-b5fd-fd544433f356', resumed: '4f7cf4a8-0d00-4464-b9f8-f202ccd6e3c6' };
const AGY = { a1: 'a1a1a1a1-1111-4222-8333-0000a1a1a1a1', a2: 'a2a2a2a2-1111-4222-8333-0000a2a2a2a2', child: '51515151-1111-4222-8333-000051515151', b1: 'b1b1b1b1-1111-4222-8333-0000b1b1b1b1' };

function agyStage(name: string, odd: boolean): AgentContractStage {
  return {
    name,
    ...(odd ? { unknownLayout: true } : {}),
    async build(root) {
      const s = materialiseAgyDerived(root);
      // An entry naming the subagent that no known layout has: a purge of its parent must refuse everything.
      if (odd) {
        mkdirSync(s.abs('knowledge'), { recursive: true });
        writeFileSync(s.abs(`knowledge/${AGY.child}.md`), 'x');
      }
      return {
        home: s.home,
        workspace: join(root, 'ws-agy-a'),
        env: {},
        ids: [AGY.a2, AGY.a1],
        otherWorkspace: { workspace: join(root, 'ws-agy-b'), ids: [AGY.b1] },
        ...(odd ? { refusedIds: [AGY.a2] } : {}),
      };
    },
  };
}

function hermesStage(name: string, unknown: boolean): AgentContractStage {
  return {
    name,
    ...(unknown ? { unknownLayout: true } : {}),
    async build(root) {
      const s = materializeHermesStage('01-two-sessions', root);
      // A new table keyed by session_id: a layout the adapter does not know.
      if (unknown) execSql(s.db, ['CREATE TABLE session_notes (session_id TEXT, note TEXT)']);
      return {
        home: s.ctx.home,
        workspace: s.wsA,
        env: s.ctx.env,
        ids: [HERMES_IDS.a2, HERMES_IDS.a1],
        otherWorkspace: { workspace: s.wsB, ids: [HERMES_IDS.b1] },
        ...(unknown ? { refusedIds: [HERMES_IDS.a1] } : {}),
      };
    },
  };
}

const STAGES: Record<AgentName, AgentContractStage[]> = {
  claude: [
    realStage('claude/01-after-runs', 'claude/01-after-runs', 'ws-claude', CLAUDE.ids, CLAUDE.other),
    {
      name: 'claude/01-after-runs, a SQLite store of an unknown layout',
      unknownLayout: true,
      async build(root) {
        const layout = await realStage('', 'claude/01-after-runs', 'ws-claude', CLAUDE.ids, CLAUDE.other).build(root);
        // Claude Code 2.x keeps no database: a store at the top of its config root naming a conversation is unknown.
        const [id] = CLAUDE.ids as [string];
        execSql(join(layout.home, '.claude', '__store.db'), [
          'CREATE TABLE base_messages (uuid TEXT PRIMARY KEY, session_id TEXT NOT NULL, cwd TEXT NOT NULL, timestamp INTEGER NOT NULL, message_type TEXT)',
          `INSERT INTO base_messages VALUES ('m0', '${id}', '${layout.workspace}', 1796000000000, 'user')`,
        ]);
        return { ...layout, refusedIds: [id] };
      },
    },
  ],
  codex: [
    realStage('codex/03-two-sessions', 'codex/03-two-sessions', 'ws-codex', [CODEX_A], ['ws-codex2', [CODEX_B]]),
    {
      name: 'codex/03-two-sessions, a state DB of an unknown layout',
      unknownLayout: true,
      async build(root) {
        const layout = await realStage('', 'codex/03-two-sessions', 'ws-codex', [CODEX_A], ['ws-codex2', [CODEX_B]]).build(root);
        execSql(join(layout.home, '.codex', 'state_9.sqlite'), ['CREATE TABLE conversations (id TEXT PRIMARY KEY, thread_id TEXT)', `INSERT INTO conversations (id) VALUES ('${CODEX_A}')`]);
        return { ...layout, refusedIds: [CODEX_A] };
      },
    },
  ],
  opencode: [
    realStage('opencode/03-two-sessions-before-delete', 'opencode/03-two-sessions-before-delete', 'ws-opencode', [OPENCODE_A], ['ws-opencode2', [OPENCODE_B]]),
    {
      name: 'opencode: a database of an unknown layout',
      unknownLayout: true,
      async build(root) {
        const home = join(root, 'home');
        const ws = join(root, 'ws');
        const bin = join(root, 'empty-bin');
        for (const d of [join(home, '.local/share/opencode'), ws, bin]) mkdirSync(d, { recursive: true });
        const id = sesId(10);
        writeDb(join(home, '.local/share/opencode/opencode.db'), [...UNKNOWN_SCHEMA, `INSERT INTO conversations VALUES ('${id}', '${ws}', 1796000000000)`]);
        return { home, workspace: ws, env: { HOME: home, PATH: bin }, ids: [], refusedIds: [id] };
      },
    },
  ],
  grok: [
    {
      name: 'grok (derived fixture)',
      async build(root) {
        const s = materializeGrokStage(root);
        return { home: s.home, workspace: s.wsA, env: {}, ids: [GROK.a2, GROK.a1], otherWorkspace: { workspace: s.wsB, ids: [GROK.b1] } };
      },
    },
  ],
  hermes: [hermesStage('hermes/01-two-sessions', false), hermesStage('hermes/01-two-sessions, an unknown table', true)],
  agy: [agyStage('agy (derived fixture)', false), agyStage('agy (derived fixture), an entry of an unknown layout', true)],
  gemini: [
    realStage('gemini/04-after-tui', 'gemini/04-after-tui', 'ws-gemini', [GEMINI.ws], ['other/ws-gemini', [GEMINI.other]]),
    realStage('gemini/02-after-resume', 'gemini/02-after-resume', 'ws-gemini', [GEMINI.resumed]),
    {
      name: 'gemini/04-after-tui, a whole-JSON chat file of an unknown layout',
      unknownLayout: true,
      async build(root) {
        const layout = await realStage('', 'gemini/04-after-tui', 'ws-gemini', [GEMINI.ws], ['other/ws-gemini', [GEMINI.other]]).build(root);
        // The whole-file chat format of older Gemini CLIs naming the conversation: the purge must refuse, not skip it.
        writeFileSync(join(layout.home, '.gemini/tmp/ws-gemini/chats/session-2026-11-30T00-53-165710fc.json'), JSON.stringify({ sessionId: GEMINI.ws, messages: [] }));
        return { ...layout, refusedIds: [GEMINI.ws] };
      },
    },
  ],
};

for (const agent of Object.keys(STAGES) as AgentName[]) {
  describe(`agent contract: ${agent}`, () => {
    describeAgentContract(
      {
        adapter: (ports) => getAdapter(agent, { ports }),
        stages: STAGES[agent],
        purgeService: (ports: Ports) => new PurgeService({ ports }),
      },
      { describe, it, afterAll },
    );
  });
}
