import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureContextOf, pinGuarded } from '../../../src/autopin/index.js';
import { type AutopinWorld, autopinWorld, EPOCH } from '../../helpers/autopin-kit.js';
import { makeRow, UA, UB } from '../../helpers/registry-fixtures.js';

const H1 = 'a1000001-0000-4000-8000-000000000001';
const NAME = 'creator-hermes-01';

describe('pinGuarded', () => {
  let w: AutopinWorld;
  beforeEach(async () => {
    w = await autopinWorld('guard');
    await w.rows([makeRow(NAME, 'hermes', w.ws, { epoch: EPOCH }), makeRow('other-hermes', 'hermes', w.ws, { ownId: UB })]);
  });
  afterEach(async () => {
    await w.dispose();
  });

  it('pins onto the same instance: own key, discovered, verified, every other field kept', async () => {
    const seen = (await w.row(NAME))!;
    expect(await pinGuarded(w.registry, seen, 'hermes', H1.toUpperCase())).toBe('pinned');
    const row = await w.row(NAME);
    expect(row).toEqual({ ...seen, hermes_conversation_id_own: H1, session_id_source: 'discovered', session_id_verified: true });
  });

  it('refuses a row recreated meanwhile, one that records another id, an id another row records, and a removed row', async () => {
    const seen = (await w.row(NAME))!;
    await w.registry.update((d) => {
      d.herdr_sessions[0]!.herdr_session_created_at = '2027-01-01T00:00:00Z';
    });
    expect(await pinGuarded(w.registry, seen, 'hermes', H1)).toBe('row-changed');
    const now = (await w.row(NAME))!;
    await w.registry.update((d) => {
      d.herdr_sessions[0]!.hermes_conversation_id_own = UA;
    });
    expect(await pinGuarded(w.registry, now, 'hermes', H1)).toBe('already-recorded');
    expect(await pinGuarded(w.registry, now, 'hermes', UA)).toBe('pinned');
    const other = (await w.row('other-hermes'))!;
    await w.registry.update((d) => {
      d.herdr_sessions[1]!.hermes_conversation_id_own = null;
    });
    expect(await pinGuarded(w.registry, { ...other, hermes_conversation_id_own: null }, 'hermes', UA)).toBe('claimed-by-other-row');
    await w.rows([]);
    expect(await pinGuarded(w.registry, now, 'hermes', H1)).toBe('row-gone');
  });
});

describe('captureContextOf', () => {
  let w: AutopinWorld;
  beforeEach(async () => {
    w = await autopinWorld('ctx');
  });
  afterEach(async () => {
    await w.dispose();
  });

  it("takes the workspace as the realpath of the pane cwd and the pane pid from herdr's process info, else the row's", async () => {
    const real = join(w.root, 'real-ws');
    mkdirSync(real);
    symlinkSync(real, join(w.root, 'link-ws'));
    const row = makeRow(NAME, 'hermes', join(w.root, 'link-ws'), { epoch: EPOCH, pid: 4242 });
    const seeded = w.herdr.addAgent({ name: NAME, kind: 'hermes', status: 'idle', cwd: real, pid: 5151 });
    const info = await w.herdr.agentGet(NAME);
    const live = info.kind === 'ok' ? info.value : null;
    const got = await captureContextOf({ ports: w.ports, home: w.home }, row, 'hermes', live, [UB]);
    expect(got).toEqual({ ok: true, ctx: { workspace: real, home: w.home, siblingClaimedIds: [UB], epoch: EPOCH, panePid: 5151 } });
    expect(seeded.pid).toBe(5151);
    const offline = await captureContextOf({ ports: w.ports, home: w.home }, row, 'hermes', null, []);
    expect(offline.ok && offline.ctx.panePid).toBe(4242);
  });

  it('a row without a pane cwd, or with one that is gone, has no context (and says why)', async () => {
    const none = { ...makeRow(NAME, 'hermes', w.ws), pane: null };
    expect(await captureContextOf({ ports: w.ports, home: w.home }, none, 'hermes', null, [])).toEqual({ ok: false, reason: 'the row names no pane cwd' });
    const gone = makeRow(NAME, 'hermes', join(w.root, 'missing'));
    const r = await captureContextOf({ ports: w.ports, home: w.home }, gone, 'hermes', null, []);
    expect(r.ok === false && r.reason).toContain('cannot be resolved');
  });
});
