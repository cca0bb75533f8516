// Every purge can be finished (issue 31): a purge of each SQLite-backed agent stopped at every step that touches its
// database's files (each look of the write guard before a write, each search of the bytes) — with a connection holding
// the database meanwhile, so no close checkpoints what a killed run would leave — and then run again finishes the job:
// the rerun never answers "unresolved" while a byte of the id is on disk, and after it the id is nowhere in the home
// but in the mentions it reports. `npm test` keeps one case per store (test/integration/finish-purge-*.test.ts).
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { scratch, streamedCodex, streamedHermes, streamedOpencode } from '../helpers/finish-stages.js';
import { filesContaining, interruptingFs, purgeWith, unreportedCopies, withHolders } from '../helpers/finish-interrupt.js';
import type { AgentName } from '../../src/ids/agent-names.js';

interface Case {
  agent: AgentName;
  id: string;
  stage: () => { dbs: string[]; root: string; opts: { home: string; env: Record<string, string> } };
}

afterAll(() => {
  for (const r of scratch.splice(0)) rmSync(r, { recursive: true, force: true });
});

const CASES: Case[] = [
  { agent: 'opencode', id: 'ses_dd6159fa8ffeNLy5GqcBDiUnlX', stage: () => { const s = streamedOpencode(); return { dbs: [s.db], root: s.home, opts: s.opts }; } },
  { agent: 'codex', id: '01a229e1-babe-7660-ab96-63d71c4bdf06', stage: () => { const s = streamedCodex(); return { dbs: [s.history, s.state], root: s.home, opts: s.opts }; } },
  { agent: 'hermes', id: '20261201_125014_1bb5bb', stage: () => { const s = streamedHermes(); return { dbs: [s.db], root: s.root, opts: s.opts }; } },
];

describe.each(CASES)('$agent: a purge stopped at any step is finished by a rerun', ({ agent, id, stage }) => {
  it('every step', { timeout: 600_000 }, async () => {
    // How many calls a whole purge makes on the databases' files.
    const count = stage();
    const counter = interruptingFs(count.dbs, 0);
    await purgeWith(counter.fs, agent, id, count.opts);
    const steps = counter.calls();
    expect(steps).toBeGreaterThan(3);
    const problems: string[] = [];
    for (let at = 1; at <= steps; at++) {
      const s = stage();
      await withHolders(s.dbs, async () => {
        const cut = interruptingFs(s.dbs, at);
        await purgeWith(cut.fs, agent, id, s.opts);
        const left = filesContaining(s.root, id);
        const rerun = await purgeWith(interruptingFs([], 0).fs, agent, id, s.opts);
        if (rerun.kind === 'unresolved' && left.some((f) => s.dbs.some((d) => f.startsWith(d)))) problems.push(`step ${at}: unresolved while ${left.join(', ')} hold the id`);
        else if (rerun.kind !== 'purged' && rerun.kind !== 'unresolved') problems.push(`step ${at}: rerun ${rerun.kind}`);
        else if (rerun.kind === 'purged' && rerun.residual.length > 0) problems.push(`step ${at}: residual ${JSON.stringify(rerun.residual)}`);
        const stays = unreportedCopies(s.root, id, rerun).filter((f) => rerun.kind === 'purged' || s.dbs.some((d) => f.startsWith(d)));
        if (stays.length > 0) problems.push(`step ${at}: ${stays.join(', ')} still hold the id`);
      });
    }
    expect(problems).toEqual([]);
  });
});
