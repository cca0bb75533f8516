// A pinned Hermes root whose conversation was compressed: AutoPin re-pins the row to the tip (the id Hermes resumes
// now), with the reason recorded on the row; an id that did not move, or a tip another row records, is left alone.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AutoPin } from '../../../src/autopin/index.js';
import { type AutopinWorld, autopinWorld, EPOCH } from '../../helpers/autopin-kit.js';
import { type HermesRealStage, IDS, materializeHermesStage } from '../../helpers/adapter-hermes-real.js';
import { makeRow } from '../../helpers/registry-fixtures.js';

const NAME = 'creator-hermes-01';

describe('AutoPin follows a compressed Hermes conversation to its tip', () => {
  let w: AutopinWorld;
  let s: HermesRealStage;
  let autopin: AutoPin;
  beforeEach(async () => {
    w = await autopinWorld('follow');
    s = materializeHermesStage('02-compressed', join(w.root, 'stage'));
    autopin = new AutoPin(w.ws, { ports: w.ports, home: w.home, env: { HERMES_HOME: s.hermesHome } });
  });
  afterEach(async () => {
    await w.dispose();
  });

  it('a row pinned to the compression root is re-pinned to the tip, the reason kept on the row', async () => {
    await w.rows([makeRow(NAME, 'hermes', s.wsA, { epoch: EPOCH, ownId: IDS.a3_root })]);
    const r = await autopin.handleCompleted(await w.completedJob(NAME), { dispatchToken: 't', attempt: 1 });
    expect(r).toMatchObject({ kind: 'pinned', id: IDS.a3_child, source: 'disk' });
    expect(await w.row(NAME)).toMatchObject({
      hermes_conversation_id_own: IDS.a3_child,
      session_id_source: 'discovered',
      session_id_verified: true,
      session_id_followed_from: IDS.a3_root,
      session_id_follow_reason: `the conversation ${IDS.a3_root} was compressed and continues under ${IDS.a3_child}`,
    });
  });

  it('an id that did not move is left as it is', async () => {
    await w.rows([makeRow(NAME, 'hermes', s.wsA, { epoch: EPOCH, ownId: IDS.a1 })]);
    const r = await autopin.handleCompleted(await w.completedJob(NAME), { dispatchToken: 't', attempt: 1 });
    expect(r).toMatchObject({ kind: 'skipped', reason: 'the row already records its conversation id' });
    expect(await w.row(NAME)).toMatchObject({ hermes_conversation_id_own: IDS.a1 });
  });

  it('a tip another row records is not taken: the row keeps its id and the reason says why', async () => {
    await w.rows([makeRow(NAME, 'hermes', s.wsA, { epoch: EPOCH, ownId: IDS.a3_root }), makeRow('other-hermes-02', 'hermes', s.wsA, { ownId: IDS.a3_child })]);
    const r = await autopin.handleCompleted(await w.completedJob(NAME), { dispatchToken: 't', attempt: 1 });
    expect(r).toMatchObject({ kind: 'skipped', reason: `the row already records its conversation id (its continuation was not followed: another row records ${IDS.a3_child})` });
    expect(await w.row(NAME)).toMatchObject({ hermes_conversation_id_own: IDS.a3_root });
  });
});
