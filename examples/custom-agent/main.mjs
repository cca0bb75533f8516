// The "notes" agent (notes-agent.mjs) through @mam/core's open door, in a throwaway home: discover, verify, holders,
// plan and purge through `new PurgeService({ agents: [notes] })` (a named purge and `auto`), the store report, and the
// agent conformance suite. Every answer is checked: an unexpected one exits 1.
// Run: `npm run example:custom-agent` (builds the package first when needed), or `node examples/custom-agent/main.mjs`.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdapter, inspectStores, nodePorts, PurgeService } from '@mam/core';
import * as testing from '@mam/core/testing';
import { notes, writeNote } from './notes-agent.mjs';

let failures = 0;
function check(what, ok, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail === '' ? '' : `: ${detail}`}`);
  if (!ok) failures += 1;
}

const dir = await mkdtemp(join(tmpdir(), 'mam-custom-agent-'));
try {
  const home = join(dir, 'home');
  const workspace = join(dir, 'repo');
  const elsewhere = join(dir, 'other-repo');
  for (const d of [home, workspace, elsewhere]) await mkdir(d);
  const fs = nodePorts().fs;
  const older = await writeNote(fs, home, workspace, Date.parse('2026-01-01T10:00:00Z'));
  const newer = await writeNote(fs, home, workspace, Date.parse('2026-01-01T11:00:00Z'));
  const other = await writeNote(fs, home, elsewhere, Date.parse('2026-01-01T12:00:00Z'));
  console.log(`home ${home}: notes ${older} (older), ${newer} (newer) in ${workspace}, ${other} in another workspace`);

  // A process table of the test kit: one live "notes" process names the older conversation on its command line.
  const proc = new testing.FakeProcessTable([{ pid: 4242, argv: ['notes', '--resume', older] }]);
  const ports = { ...nodePorts(), proc };
  const ctx = { workspace, home };

  // The adapter of the definition: the same calls as any built-in agent's.
  const adapter = createAdapter(notes, ports);
  const found = await adapter.discover(ctx);
  check('discover lists the workspace\'s notes, newest first', JSON.stringify(found) === JSON.stringify([newer, older]), found.join(' '));
  check('verifyArtifact: a note of this workspace', (await adapter.verifyArtifact(older, ctx)) === true);
  check('verifyArtifact: a note of another workspace', (await adapter.verifyArtifact(other, ctx)) === false);
  check('verifyArtifact: an implausible id reaches no path', (await adapter.verifyArtifact('../etc/passwd', ctx)) === false);
  const holders = await adapter.inUseHolders(older, ctx);
  check('inUseHolders names the process whose command line names the id', holders.length === 1 && holders[0].pid === 4242, holders.map((h) => `pid ${h.pid} (${h.signal})`).join(', '));

  // PurgeService with the outside agent: by name, and by `auto` (asked after the built-ins).
  const service = new PurgeService({ ports, agents: [notes] });
  const held = await service.purge('notes', older, { home });
  check('a held conversation is refused, nothing removed', held.kind === 'in-use' && (await adapter.verifyArtifact(older, ctx)), held.kind);
  proc.kill(4242);
  const plan = await service.plan('notes', older, { home, workspace });
  check('plan (changes nothing): one file to remove', plan.verdict === 'purge' && plan.artifacts.length === 1 && (await adapter.verifyArtifact(older, ctx)), `${plan.verdict}: ${plan.reason}`);
  const done = await service.execute(plan);
  check('execute the plan: purged', done.kind === 'purged' && done.agent === 'notes', done.kind);
  check('resolve finds the outside agent', (await service.resolve(newer, ctx)) === 'notes');
  const auto = await service.purge('auto', newer, { home, workspace });
  check('purge auto: purged by notes', auto.kind === 'purged' && auto.agent === 'notes', `${auto.kind} (${auto.agent})`);
  const left = await adapter.discover(ctx);
  check('discover after the purges: nothing left in the workspace', left.length === 0, left.join(' '));
  const scoped = await service.purge('notes', other, { home, workspace });
  check('a note of another workspace is refused when the purge is scoped', scoped.kind === 'not-in-workspace', scoped.kind);
  let unknown = '';
  try {
    await service.plan('nope', other, { home });
  } catch (err) {
    unknown = err.code;
  }
  check('an unknown agent name is refused', unknown === 'UNKNOWN_AGENT', unknown);

  // The store report (what `mam doctor --agents` prints).
  const reports = await inspectStores({ home, ports, agents: [notes] });
  const mine = reports.at(-1);
  check('inspectStores reports the notes store after the built-ins', mine?.agent === 'notes' && mine.known === true && mine.counts.sessions === 1, JSON.stringify(mine?.counts));

  // The agent laws (the conformance suite of @mam/core/testing); live-holder-refuses also purges through a
  // PurgeService that knows the notes agent.
  {
    const verdict = await testing.runAgentContract({
      adapter: (p) => createAdapter(notes, p),
      stages: [
        {
          name: 'two notes',
          async build(root) {
            const h = join(root, 'home');
            const ws = join(root, 'ws');
            const ws2 = join(root, 'ws2');
            for (const d of [h, ws, ws2]) await mkdir(d, { recursive: true });
            const a = await writeNote(fs, h, ws, Date.parse('2026-01-01T10:00:00Z'));
            const b = await writeNote(fs, h, ws, Date.parse('2026-01-01T11:00:00Z'));
            const c = await writeNote(fs, h, ws2, Date.parse('2026-01-01T12:00:00Z'));
            return { home: h, workspace: ws, ids: [b, a], otherWorkspace: { workspace: ws2, ids: [c] } };
          },
        },
      ],
    });
    for (const l of verdict.laws.filter((x) => !x.ok)) console.log(`  law ${l.law} (${l.stage}): ${l.message ?? 'failed'}`);
    check('runAgentContract: every law holds', verdict.passed === true, `${verdict.laws.length} law(s)`);
    const live = verdict.laws.find((l) => l.law === 'live-holder-refuses');
    check('runAgentContract: the live holder is refused by a PurgeService too', live?.ok === true && !/adapter level/.test(live.message ?? ''), live?.message ?? 'through the service');
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

console.log(failures === 0 ? 'custom agent: every answer as expected' : `custom agent: ${failures} unexpected answer(s)`);
process.exitCode = failures === 0 ? 0 : 1;
