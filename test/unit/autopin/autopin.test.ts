import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AutoPin, AutoPinArgumentError } from '../../../src/autopin/index.js';
import { sanitizeHerdrAgentName } from '../../../src/herdr/index.js';
import { NodeClock } from '../../../src/node/node-clock.js';
import { type AutopinWorld, autopinWorld, EPOCH } from '../../helpers/autopin-kit.js';
import { makeRow, UB } from '../../helpers/registry-fixtures.js';

const H1 = 'a1000001-0000-4000-8000-000000000001';
const H2 = 'a1000002-0000-4000-8000-000000000002';
const H9 = 'a1000009-0000-4000-8000-000000000009';
const NAME = 'creator-hermes-01';

function report(value: string) {
  return { source: 'herdr:hermes', agent: 'hermes', kind: 'id' as const, value };
}

describe('AutoPin.handleCompleted', () => {
  let w: AutopinWorld;
  let autopin: AutoPin;
  beforeEach(async () => {
    w = await autopinWorld('unit');
    await w.rows([makeRow(NAME, 'hermes', w.ws, { epoch: EPOCH, pid: 4242 }), makeRow('reviewer-claude-01', 'claude', w.ws, { ownId: UB })]);
    autopin = new AutoPin(w.ws, { ports: w.ports, home: w.home });
  });
  afterEach(async () => {
    await w.dispose();
  });

  it("pins herdr's reported id once it verifies on disk, as discovered and verified; the job record stays byte-identical", async () => {
    w.hermes([[H1, w.ws, EPOCH + 10]]);
    w.herdr.addAgent({ name: NAME, kind: 'hermes', status: 'idle', cwd: w.ws, agentSession: report(H1) });
    const job = await w.completedJob(NAME);
    const before = w.jobBytes(job);
    const r = await autopin.handleCompleted(job, { dispatchToken: 'tok-1', attempt: 1 });
    expect(r).toEqual({ kind: 'pinned', jobId: job, name: NAME, agent: 'hermes', id: H1, source: 'herdr' });
    expect(await w.row(NAME)).toMatchObject({ hermes_conversation_id_own: H1, session_id_source: 'discovered', session_id_verified: true });
    expect(w.jobBytes(job)).toBe(before);
    expect(readdirSync(join(w.jobsDir, job)).filter((f) => f.startsWith('autopin-a1-'))).toHaveLength(1);
  });

  it("herdr's report is first evidence only: an id with no conversation here falls back to the capture from disk", async () => {
    w.hermes([[H1, w.ws, EPOCH + 10]]);
    w.herdr.addAgent({ name: NAME, kind: 'hermes', status: 'idle', cwd: w.ws, agentSession: report(H9) });
    const r = await autopin.handleCompleted(await w.completedJob(NAME), { dispatchToken: 't', attempt: 1 });
    expect(r).toMatchObject({ kind: 'pinned', id: H1, source: 'disk' });
  });

  it('two candidates: failed as ambiguous, the reason left on the row, the job still completed and unchanged', async () => {
    w.hermes([[H1, w.ws, EPOCH + 10], [H2, w.ws, EPOCH + 20]]);
    const job = await w.completedJob(NAME);
    const before = w.jobBytes(job);
    const r = await autopin.handleCompleted(job, { dispatchToken: 't', attempt: 1 });
    expect(r).toMatchObject({ kind: 'failed', name: NAME, noted: true });
    expect(r.kind === 'failed' && r.reason).toContain('ambiguous');
    expect(r.kind === 'failed' && [...r.candidates].sort()).toEqual([H1, H2]);
    const row = await w.row(NAME);
    expect(row).toMatchObject({ autopin_error_job: job, hermes_conversation_id_own: null, session_id_verified: false });
    expect(String(row?.['autopin_error'])).toContain('ambiguous');
    expect(w.jobBytes(job)).toBe(before);
    expect((await w.jobs.load(job)).status).toBe('completed');
  });

  it('a later pin clears the failure note', async () => {
    w.hermes([[H1, w.ws, EPOCH + 10], [H2, w.ws, EPOCH + 20]]);
    await autopin.handleCompleted(await w.completedJob(NAME), { dispatchToken: 't', attempt: 1 });
    w.herdr.addAgent({ name: NAME, kind: 'hermes', status: 'idle', cwd: w.ws, agentSession: report(H2) });
    expect(await autopin.handleCompleted(await w.completedJob(NAME), { dispatchToken: 't', attempt: 1 })).toMatchObject({ kind: 'pinned', id: H2 });
    const row = await w.row(NAME);
    expect(row && 'autopin_error' in row).toBe(false);
    expect(row && 'autopin_error_job' in row).toBe(false);
  });

  it('one (job, token, attempt) is handled once however many callers race; another token is handled again', async () => {
    w.hermes([[H1, w.ws, EPOCH + 10]]);
    const job = await w.completedJob(NAME);
    // A real clock: the fake one would jump past the lock timeout while the first caller holds the lock.
    const racer = new AutoPin(w.ws, { ports: { ...w.ports, clock: new NodeClock() }, home: w.home });
    const results = await Promise.all(Array.from({ length: 5 }, () => racer.handleCompleted(job, { dispatchToken: 'tok', attempt: 1 })));
    const first = results.filter((r) => !(r.kind === 'skipped' && r.reason === 'already handled'));
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ kind: 'pinned', id: H1 });
    for (const r of results) if (r !== first[0]) expect(r).toMatchObject({ kind: 'skipped', reason: 'already handled', previous: { kind: 'pinned', id: H1 } });
    const other = await autopin.handleCompleted(job, { dispatchToken: 'tok-2', attempt: 1 });
    expect(other).toMatchObject({ kind: 'skipped', reason: 'the row already records its conversation id' });
    expect(readdirSync(join(w.jobsDir, job)).filter((f) => f.startsWith('autopin-a1-'))).toHaveLength(2);
  });

  it('only a local herdr job, completed, at its current attempt: anything else is a no-op with a reason', async () => {
    w.hermes([[H1, w.ws, EPOCH + 10]]);
    const yamlBefore = readFileSync(w.yamlPath, 'utf8');
    const remote = await w.completedJob(NAME, 'mqtt:creator');
    expect(await autopin.handleCompleted(remote, { dispatchToken: 't', attempt: 1 })).toMatchObject({ kind: 'skipped', reason: expect.stringContaining('not a local herdr job') });
    const none = await w.completedJob(NAME, null);
    expect(await autopin.handleCompleted(none, { dispatchToken: 't', attempt: 1 })).toMatchObject({ kind: 'skipped', reason: expect.stringContaining('not a local herdr job') });
    const running = await w.jobs.registerJob('p', { agentSession: `herdr:${NAME}` });
    await w.jobs.transition(running.job_id, 'claim', {});
    expect(await autopin.handleCompleted(running.job_id, { dispatchToken: 't', attempt: 1 })).toMatchObject({ kind: 'skipped', reason: 'the job is running, not completed' });
    const done = await w.completedJob(NAME);
    expect(await autopin.handleCompleted(done, { dispatchToken: 't', attempt: 2 })).toMatchObject({ kind: 'skipped', reason: expect.stringContaining('stale attempt') });
    expect(readFileSync(w.yamlPath, 'utf8')).toBe(yamlBefore);
    expect((await w.row(NAME))?.hermes_conversation_id_own).toBeNull();
    for (const job of [remote, none, running.job_id, done]) expect(readdirSync(join(w.jobsDir, job)).filter((f) => f.startsWith('autopin-a'))).toEqual([]);
  });

  it('hostile arguments are refused before anything is touched', async () => {
    const job = await w.completedJob(NAME);
    const bad: Array<[string, string, number]> = [
      ['../x', 't', 1], ['a/b', 't', 1], ['', 't', 1], ['.hidden', 't', 1],
      [job, '', 1], [job, 'a\nb', 1], [job, 'x'.repeat(1025), 1], [job, 't', 0], [job, 't', 1.5], [job, 't', Number.NaN],
    ];
    for (const [id, token, attempt] of bad) {
      const err = await autopin.handleCompleted(id, { dispatchToken: token, attempt }).catch((e: unknown) => e);
      expect(err, `${id} ${token.slice(0, 5)} ${attempt}`).toBeInstanceOf(AutoPinArgumentError);
      expect((err as AutoPinArgumentError).code).toBe('AUTOPIN_INVALID_ARGUMENT');
    }
    expect(readdirSync(join(w.jobsDir, job))).toEqual([]);
  });

  it('a job naming no registered row fails without noting anything', async () => {
    const job = await w.completedJob('nobody');
    expect(await autopin.handleCompleted(job, { dispatchToken: 't', attempt: 1 })).toMatchObject({ kind: 'failed', name: 'nobody', noted: false, reason: expect.stringContaining('no row named') });
  });

  it('a row name herdr would reject is asked for under its sanitised name', async () => {
    const odd = 'Creator Hermes/01';
    await w.rows([makeRow(odd, 'hermes', w.ws, { epoch: EPOCH })]);
    w.hermes([[H1, w.ws, EPOCH + 10], [H2, w.ws, EPOCH + 20]]);
    w.herdr.addAgent({ name: sanitizeHerdrAgentName(odd), kind: 'hermes', status: 'idle', cwd: w.ws, agentSession: report(H2) });
    expect(await autopin.handleCompleted(await w.completedJob(odd), { dispatchToken: 't', attempt: 1 })).toMatchObject({ kind: 'pinned', name: odd, id: H2, source: 'herdr' });
    expect(w.herdr.calls.some((c) => c.op === 'agentGet' && c.argv.includes(sanitizeHerdrAgentName(odd)))).toBe(true);
  });

  it('an id another row records is never pinned, even when herdr reports it', async () => {
    await w.rows([makeRow(NAME, 'hermes', w.ws, { epoch: EPOCH }), makeRow('old-hermes', 'hermes', w.ws, { ownId: H1, status: 'stopped' })]);
    w.hermes([[H1, w.ws, EPOCH + 10]]);
    w.herdr.addAgent({ name: NAME, kind: 'hermes', status: 'idle', cwd: w.ws, agentSession: report(H1) });
    const r = await autopin.handleCompleted(await w.completedJob(NAME), { dispatchToken: 't', attempt: 1 });
    expect(r).toMatchObject({ kind: 'failed', noted: true });
    expect(r.kind === 'failed' && r.reason).toMatch(/another row/);
    expect((await w.row(NAME))?.hermes_conversation_id_own).toBeNull();
  });

  it('a registry that cannot be read: failed and said so, nothing noted, the job untouched', async () => {
    w.hermes([[H1, w.ws, EPOCH + 10]]);
    const job = await w.completedJob(NAME);
    const before = w.jobBytes(job);
    writeFileSync(w.yamlPath, 'herdr_sessions: [ {{{ not yaml');
    const r = await autopin.handleCompleted(job, { dispatchToken: 't', attempt: 1 });
    expect(r).toMatchObject({ kind: 'failed', noted: false, reason: expect.stringContaining('registry error') });
    expect(w.jobBytes(job)).toBe(before);
  });
});
