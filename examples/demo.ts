// `npm run demo`: a guided run of @mam/core in a sandbox under the system temp dir. First on files the real agent CLIs wrote
// (test/fixtures/real, rewritten to the sandbox): discover, pin, status, a refused purge, a real purge. Then with live fake
// agents in the fake herdr executable: a dry-run reset and a reset of three agents. Every claim printed is checked (a false
// one exits non-zero); the sandbox is removed and every child ended at the end, also on a failure or a signal.
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '../src/testing/index.js';
import { Cleanup } from './demo/cleanup.js';
import { discoverAll, type Found } from './demo/discover.js';
import { type Pinned, pinRows, showStatus } from './demo/pin-status.js';
import { hostileIds, realPurges, refusedPurges } from './demo/purge.js';
import { buildRealHomes, type RealHomes } from './demo/real-homes.js';
import { dryRunReset, realReset, startAgents } from './demo/reset.js';
import { title } from './demo/ui.js';

const started = performance.now();
const sandbox = realpathSync(mkdtempSync(join(tmpdir(), 'mam-demo-')));
const cleanup = new Cleanup(sandbox);
const KEEP = 'reviewer-claude-02';

let real!: RealHomes;
let found!: Found[];
let pinned!: Pinned[];
let sb!: Sandbox;

const steps: [string, () => Promise<unknown>][] = [
  ['Sandbox: three homes written by the real CLIs (Claude Code 2.1, Codex 0.171, OpenCode 1.18)', async () => (real = buildRealHomes(join(sandbox, 'real')))],
  ['Discover: each workspace finds exactly its own conversations, newest first', async () => (found = await discoverAll(real.homes, real.root))],
  ['Pin: rows registered in team/.mam/agent-sessions.yaml with the discovered ids', async () => (pinned = await pinRows(real, found))],
  ['Status (mam status): each row, its recorded id, whether it resumes (verified on disk)', () => showStatus(real, pinned, () => 'yes')],
  ['Purge refused: a live process uses the conversation, so nothing is removed', () => refusedPurges(real, pinned, cleanup)],
  ['Purge for real: every trace of a conversation, and nothing of any other', async () => {
    await realPurges(real, pinned, KEEP);
    await hostileIds(real);
  }],
  ['Status again: purged conversations no longer resume; the kept one does', () => showStatus(real, pinned, (p) => (p.name === KEEP ? 'yes' : 'no'))],
  ['Reset sandbox: three fake agents started through the fake herdr executable', async () => (sb = await startAgents(join(sandbox, 'agents'), cleanup))],
  ['Reset, dry run (mam reset --dry-run): the plan, and nothing touched', () => dryRunReset(sb)],
  ['Reset (mam reset --yes): one agent after another, old conversations purged, new ids recorded', () => realReset(sb, cleanup.signal)],
];

try {
  console.log(`@mam/core demo — sandbox ${sandbox}`);
  for (const [text, run] of steps) {
    if (cleanup.signal.aborted) break;
    title(text);
    await run();
  }
  if (!cleanup.signal.aborted) console.log(`\nDone in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
} catch (err) {
  console.error(`\ndemo failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await cleanup.run();
  const code = cleanup.signalExitCode();
  if (code !== null) {
    console.error(`demo: stopped by ${String(cleanup.signal.reason)}; sandbox removed, every agent ended`);
    process.exitCode = code;
  }
}
