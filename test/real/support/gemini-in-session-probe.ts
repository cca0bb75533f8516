// Run by Gemini CLI's shell tool (a scripted call of the fake model server), so it sees exactly the environment a purge
// run from inside that session would (`GEMINI_CLI=1`, no session id): `tsx gemini-in-session-probe.ts <out.json> <home>
// <workspace>`. It takes the newest conversation of the workspace (the one whose turn is running it), asks the library who
// holds it and to purge it, and writes what it found to <out.json>.
import { writeFileSync } from 'node:fs';
import { getAdapter, PurgeService } from '../../../src/index.js';

const [out, home, workspace] = process.argv.slice(2) as [string, string, string];
const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
const ctx = { workspace, home, env };
const id = (await getAdapter('gemini').discover(ctx))[0] ?? '';
const holders = await getAdapter('gemini').inUseHolders(id, ctx);
const purge = await new PurgeService().purge('gemini', id, { home, workspace, env });
writeFileSync(
  out,
  JSON.stringify({
    id,
    geminiKeys: Object.keys(env).filter((k) => k.startsWith('GEMINI')).sort(),
    holders,
    purge: purge.kind,
  }),
);
