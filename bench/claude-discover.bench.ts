// Benchmark: ClaudeAdapter.discover for one workspace in a generated Claude config of 5,000 transcripts over 200 project
// dirs, against the minimal work discovery cannot avoid — one readdir of the workspace's own key dir and, of each of its
// transcripts, an fstat of its descriptor (only a regular file is read) and the head up to the first record naming the
// cwd — measured in the same run, interleaved, as a ratio.
// Run: npx tsx bench/claude-discover.bench.ts   (writes bench/results/claude.md)
import { randomUUID } from 'node:crypto';
import { constants, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClaudeAdapter } from '../src/agents/claude/claude-adapter.js';
import { claudeProjectKey } from '../src/agents/claude/project-key.js';
import { nodePorts } from '../src/node/node-ports.js';
import { median, ratioOf, timed } from './bench-kit.js';

const PROJECTS = 200;
const TRANSCRIPTS = 5_000;
const ROUNDS = 101;
const LIMIT = 1.5;

function transcript(id: string, cwd: string, startMs: number): string {
  const ts = (dt: number): string => new Date(startMs + dt).toISOString();
  const base = { sessionId: id, cwd, version: '2.1.197', gitBranch: 'main', userType: 'external', entrypoint: 'cli' };
  const lines: unknown[] = [
    { type: 'queue-operation', operation: 'enqueue', timestamp: ts(0), sessionId: id, content: 'please fix the failing test' },
    { type: 'queue-operation', operation: 'dequeue', timestamp: ts(1), sessionId: id },
    { parentUuid: null, isSidechain: false, type: 'user', message: { role: 'user', content: 'please fix the failing test' }, uuid: randomUUID(), timestamp: ts(2), ...base },
  ];
  for (let i = 0; i < 12; i += 1) {
    lines.push({ parentUuid: randomUUID(), type: i % 2 === 0 ? 'assistant' : 'user', message: { role: 'assistant', content: 'x'.repeat(600) }, uuid: randomUUID(), timestamp: ts(10 + i), ...base });
  }
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

function generate(root: string): { home: string; workspace: string; keyDir: string } {
  const home = join(root, 'home');
  const projects = join(home, '.claude', 'projects');
  let n = 0;
  let target = '';
  for (let p = 0; p < PROJECTS; p += 1) {
    const ws = join(root, 'work', `project-${String(p).padStart(3, '0')}`);
    mkdirSync(ws, { recursive: true });
    const keyDir = join(projects, claudeProjectKey(ws));
    mkdirSync(join(keyDir, 'memory'), { recursive: true });
    const per = Math.floor(TRANSCRIPTS / PROJECTS);
    for (let t = 0; t < per; t += 1, n += 1) {
      const id = randomUUID();
      writeFileSync(join(keyDir, `${id}.jsonl`), transcript(id, ws, Date.UTC(2026, 10, 1) + n * 60_000));
    }
    if (p === PROJECTS / 2) target = ws;
  }
  for (const d of ['sessions', 'session-env', 'telemetry', 'todos', 'file-history']) mkdirSync(join(home, '.claude', d), { recursive: true });
  return { home, workspace: target, keyDir: join(projects, claudeProjectKey(target)) };
}

// The floor: list the key dir, and of each transcript (checked a regular file on its descriptor) read only up to the end
// of the first line that names a cwd.
async function minimal(keyDir: string, workspace: string): Promise<string[]> {
  const names = (await readdir(keyDir, { withFileTypes: true })).filter((e) => e.isFile() && e.name.endsWith('.jsonl'));
  const found = await Promise.all(
    names.map(async (e) => {
      // Opened without waiting for a writer and checked a regular file on the descriptor before any read, as every read in
      // an agent's tree must be (a FIFO or a device named like a transcript is never read): one fstat.
      const fh = await open(join(keyDir, e.name), constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        if (!(await fh.stat()).isFile()) return null;
        let text = '';
        const buf = Buffer.alloc(4096);
        for (let pos = 0; ; ) {
          const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
          if (bytesRead === 0) return null;
          pos += bytesRead;
          text += buf.toString('utf8', 0, bytesRead);
          for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n')) {
            const rec = JSON.parse(text.slice(0, nl)) as { cwd?: string; timestamp?: string };
            text = text.slice(nl + 1);
            if (typeof rec.cwd === 'string') return rec.cwd === workspace ? { id: e.name.slice(0, -6), at: Date.parse(rec.timestamp ?? '') } : null;
          }
        }
      } finally {
        await fh.close();
      }
    }),
  );
  return found.filter((f): f is { id: string; at: number } => f !== null).sort((a, b) => b.at - a.at).map((f) => f.id);
}

const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-bench-claude-')));
try {
  const { home, workspace, keyDir } = generate(root);
  const claude = new ClaudeAdapter(nodePorts());
  const ctx = { workspace, home: home, env: { TMPDIR: join(root, 'tmp') } };
  const expected = await minimal(keyDir, workspace);
  const got = await claude.discover(ctx);
  if (JSON.stringify(got) !== JSON.stringify(expected) || got.length !== TRANSCRIPTS / PROJECTS) throw new Error(`discover disagrees with the floor: ${got.length} vs ${expected.length}`);
  // Interleaved (order alternating) so both see the same cache and machine load, after the warm-up (see ratioOf).
  const m = await ratioOf(() => claude.discover(ctx), () => minimal(keyDir, workspace), ROUNDS, 5);
  const purgeScan: number[] = [];
  for (let r = 0; r < 11; r += 1) purgeScan.push(await timed(() => claude.hasArtifacts(randomUUID(), ctx)));
  const [a, f, ratio] = [m.a, m.f, m.r];
  const verdict = ratio <= LIMIT ? 'PASS' : 'FAIL';
  const md = [
    '## claude: discover for one workspace',
    '',
    `Generated config: ${TRANSCRIPTS.toLocaleString('en')} transcripts over ${PROJECTS} project dirs (${TRANSCRIPTS / PROJECTS} in the workspace's key dir, ~9 KB each, cwd in the 3rd record). Node ${process.version}, ${ROUNDS} interleaved rounds after a warm-up of at least 5 rounds and 1.5 s; times are medians, the ratio is the median of the rounds' ratios (each round times both back to back).`,
    '',
    '| measure | median ms |',
    '| --- | ---: |',
    `| \`ClaudeAdapter.discover\` (realpath, key dir listing, transcript heads, config-root store check) | ${a.toFixed(2)} |`,
    `| floor: one readdir of the key dir + each transcript checked a regular file (fstat of the descriptor) and read up to its first cwd record (raw fs, 4 KiB reads) | ${f.toFixed(2)} |`,
    `| **ratio** adapter / floor (limit ${LIMIT}×; rounds' p25–p75: ${m.p25.toFixed(2)}–${m.p75.toFixed(2)}) | **${ratio.toFixed(2)}× — ${verdict}** |`,
    `| \`hasArtifacts\` of an unknown id (purge/residual scan: every key dir, tmp, config dirs) — for scale | ${median(purgeScan).toFixed(2)} |`,
    '',
  ].join('\n');
  process.stdout.write(`${md}\n`);
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  writeFileSync(join(import.meta.dirname, 'results', 'claude.md'), md);
  if (verdict === 'FAIL') process.exitCode = 1;
} finally {
  rmSync(root, { recursive: true, force: true });
}
