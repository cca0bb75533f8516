// Run by a real agent CLI's shell tool (a scripted call of the fake model server), so it sees exactly the environment a
// purge run from inside that session would: `tsx in-session-probe.ts <out.json> <home> <workspace>`. It takes the newest
// OpenCode session of the workspace (the one whose turn is running it), asks the library whether it is in use and to purge
// it, and writes what it found to <out.json>.
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { callerOpencodeSession, sessionReach } from '../../../src/agents/opencode/opencode-holders.js';
import { getAdapter, PurgeService } from '../../../src/index.js';
import { nodePorts } from '../../../src/node/node-ports.js';

const [out, home, workspace] = process.argv.slice(2) as [string, string, string];
const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
const ctx = { workspace, home: home, env };
const adapter = getAdapter('opencode');
const id = (await adapter.discover(ctx))[0] ?? '';
const db = new Database(join(env['XDG_DATA_HOME'] ?? join(home, '.local/share'), 'opencode', 'opencode.db'), { readonly: true });
const dirs = sessionReach(db, id);
db.close();
const holders = await adapter.inUseHolders(id, ctx);
const caller = await callerOpencodeSession(nodePorts().proc, id, dirs);
const purge = await new PurgeService().purge('opencode', id, { home, workspace, env });
writeFileSync(
  out,
  JSON.stringify({
    id,
    opencodePid: env['OPENCODE_PID'] ?? null,
    opencodeKeys: Object.keys(env).filter((k) => k.startsWith('OPENCODE')).sort(),
    holders,
    caller,
    purge: purge.kind,
  }),
);
