// Benchmark: opencode `discover` for one workspace on a database of 50,000 sessions, against the minimal work it cannot
// avoid — one read-only open and one query for the workspace's top-level sessions — measured in the same run, interleaved.
// Run: npx tsx bench/opencode-discover.bench.ts   (prints a markdown section and writes bench/results/opencode.md)
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { OpencodeAdapter } from '../src/adapters/opencode/opencode-adapter.js';
import { NodeFileSystem } from '../src/node/node-fs.js';
import { nodePorts } from '../src/node/node-ports.js';
import { withReadonlyDb } from '../src/sqlite/open-readonly.js';
import { sesId, v1Schema } from '../test/helpers/adapter-opencode-db.js';
import { installFakeOpencode } from '../test/helpers/adapter-opencode-fake-cli.js';

const SESSIONS = 50_000;
const WORKSPACES = 400;
const CHILD_EVERY = 5; // every 5th session is a child (sub-agent) session of the one before
const ROUNDS = 400;

interface Scenario {
  name: string;
  index: boolean;
}

function build(db: string, wsRoot: string, index: boolean): void {
  const h = new Database(db);
  h.pragma('foreign_keys = OFF');
  for (const s of v1Schema()) h.exec(s);
  if (index) h.exec('CREATE INDEX session_directory_idx ON session (directory)');
  const ins = h.prepare(
    "INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'global', ?, 's', ?, 't', '1.18.33', ?, ?)",
  );
  h.transaction(() => {
    for (let i = 0; i < SESSIONS; i++) {
      const dir = join(wsRoot, `ws-${i % WORKSPACES}`);
      const parent = i % CHILD_EVERY === CHILD_EVERY - 1 ? sesId(i - 1) : null;
      const t = 1_790_000_000_000 + i * 1000;
      ins.run(sesId(i), parent, dir, t, t);
    }
  })();
  h.close();
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

async function run(sc: Scenario, root: string): Promise<string> {
  const base = join(root, sc.name.replace(/\W+/g, '-'));
  const home = join(base, 'home');
  const data = join(home, '.local/share/opencode');
  const wsRoot = join(base, 'ws');
  mkdirSync(data, { recursive: true });
  for (const w of [0, 1]) mkdirSync(join(wsRoot, `ws-${w}`), { recursive: true });
  const db = join(data, 'opencode.db');
  build(db, wsRoot, sc.index);
  // A real `opencode` on PATH answers `debug paths` once; the answer is kept, as in a real run.
  installFakeOpencode(join(base, 'bin'), { spyLog: join(base, 'spy.log') });
  const ws = join(wsRoot, 'ws-1');
  const ctx = { workspace: ws, home: home, env: { HOME: home, PATH: join(base, 'bin') } };
  const adapter = new OpencodeAdapter(nodePorts());
  const fs = new NodeFileSystem();
  const minimal = (): Promise<string[]> =>
    withReadonlyDb(db, { fs }, (r) =>
      r.db
        .prepare("SELECT id FROM session WHERE directory IN (?, ?) AND (parent_id IS NULL OR parent_id = '') ORDER BY time_created DESC")
        .pluck()
        .all(ws, ws) as string[],
    );
  const want = await minimal();
  const got = await adapter.discover(ctx);
  if (JSON.stringify(got) !== JSON.stringify(want) || want.length === 0) throw new Error(`discover disagrees with the minimal query: ${got.length} vs ${want.length}`);
  for (let i = 0; i < 30; i++) {
    await minimal();
    await adapter.discover(ctx);
  }
  const tMin: number[] = [];
  const tDisc: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    // Alternate which goes first so neither benefits from the other's warm cache.
    const order = i % 2 === 0 ? ['min', 'disc'] : ['disc', 'min'];
    for (const which of order) {
      const t0 = performance.now();
      if (which === 'min') await minimal();
      else await adapter.discover(ctx);
      (which === 'min' ? tMin : tDisc).push(performance.now() - t0);
    }
  }
  const m = median(tMin);
  const d = median(tDisc);
  const ratio = d / m;
  return `| ${sc.name} | ${want.length} | ${(m * 1000).toFixed(0)} µs | ${(d * 1000).toFixed(0)} µs | ${ratio.toFixed(2)}× | ${ratio <= 1.5 ? 'pass' : 'FAIL'} |`;
}

async function main(): Promise<void> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-oc-bench-')));
  try {
    const rows: string[] = [];
    for (const sc of [
      { name: '1.x schema + index on session.directory', index: true },
      { name: '1.x schema as shipped (no index on directory: a scan)', index: false },
    ]) {
      rows.push(await run(sc, root));
    }
    const md = [
      '## opencode: discover for one workspace',
      '',
      `${SESSIONS.toLocaleString('en')} sessions over ${WORKSPACES} workspaces (every ${CHILD_EVERY}th a child session), median of ${ROUNDS} interleaved rounds.`,
      '"minimal" = one read-only open (`withReadonlyDb`) + one query for the workspace\'s top-level sessions; "discover" = `OpencodeAdapter.discover` (agent env, binary lookup, cached `debug paths` answer, workspace realpath, layout read once per schema text, both schemas). Target: ratio ≤ 1.5.',
      '',
      '| database | sessions found | minimal | discover | ratio | |',
      '| --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n');
    process.stdout.write(`${md}\n`);
    const out = join(import.meta.dirname, 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'opencode.md'), md);
    if (rows.some((r) => r.includes('FAIL'))) process.exitCode = 1;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
