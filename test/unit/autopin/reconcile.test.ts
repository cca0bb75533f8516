import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reconcile } from '../../../src/autopin/index.js';
import { type AutopinWorld, autopinWorld, EPOCH } from '../../helpers/autopin-kit.js';
import { makeRow, UA } from '../../helpers/registry-fixtures.js';

const H1 = 'a1000001-0000-4000-8000-000000000001';
const H2 = 'a1000002-0000-4000-8000-000000000002';
const H3 = 'a1000003-0000-4000-8000-000000000003';

describe('reconcile (drift C)', () => {
  let w: AutopinWorld;
  let a: string;
  let b: string;
  beforeEach(async () => {
    w = await autopinWorld('rec');
    a = join(w.ws, 'a');
    b = join(w.ws, 'b');
    for (const d of [a, b]) mkdirSync(d);
    await w.rows([
      makeRow('hermes-a', 'hermes', a, { epoch: EPOCH }),
      makeRow('hermes-b', 'hermes', b, { epoch: EPOCH }),
      makeRow('claude-unpinned', 'claude', a, { epoch: EPOCH }),
      makeRow('hermes-stopped', 'hermes', a, { epoch: EPOCH, status: 'stopped' }),
      makeRow('hermes-pinned', 'hermes', b, { epoch: EPOCH, ownId: UA }),
    ]);
    w.hermes([[H1, a, EPOCH + 10], [H2, b, EPOCH + 10], [H3, join(w.ws, 'elsewhere'), EPOCH + 10]]);
  });
  afterEach(async () => {
    await w.dispose();
  });

  it('is a dry run by default: every running post-discovered row with no pinned id is captured, nothing is written', async () => {
    const before = readFileSync(w.yamlPath, 'utf8');
    const mtime = statSync(w.yamlPath).mtimeMs;
    const r = await reconcile(w.ws, { ports: w.ports, home: w.home });
    expect(r).toEqual({
      workspace: w.ws, apply: false,
      entries: [
        { name: 'hermes-a', agent: 'hermes', outcome: 'would-pin', id: H1, source: 'disk' },
        { name: 'hermes-b', agent: 'hermes', outcome: 'would-pin', id: H2, source: 'disk' },
      ],
    });
    expect(readFileSync(w.yamlPath, 'utf8')).toBe(before);
    expect(statSync(w.yamlPath).mtimeMs).toBe(mtime);
  });

  it('with apply, pins each captured id (discovered, verified) and leaves the other rows alone', async () => {
    const r = await reconcile(w.ws, { ports: w.ports, home: w.home, apply: true });
    expect(r.entries.map((e) => [e.name, e.outcome])).toEqual([['hermes-a', 'pinned'], ['hermes-b', 'pinned']]);
    expect(await w.row('hermes-a')).toMatchObject({ hermes_conversation_id_own: H1, session_id_source: 'discovered', session_id_verified: true });
    expect(await w.row('hermes-b')).toMatchObject({ hermes_conversation_id_own: H2 });
    expect((await w.row('hermes-stopped'))?.hermes_conversation_id_own).toBeNull();
    expect((await w.row('claude-unpinned'))?.claude_session_id_own).toBeNull();
    expect((await reconcile(w.ws, { ports: w.ports, home: w.home })).entries).toEqual([]);
  });

  it('an id proposed for one row counts as claimed for the next, in a dry run as with apply', async () => {
    await w.rows([makeRow('hermes-a', 'hermes', a, { epoch: EPOCH }), makeRow('hermes-a2', 'hermes', a, { epoch: EPOCH })]);
    w.herdr.addAgent({ name: 'hermes-a', kind: 'hermes', status: 'idle', cwd: a, agentSession: { source: 'herdr:hermes', agent: 'hermes', kind: 'id', value: H1 } });
    for (const apply of [false, true]) {
      const r = await reconcile(w.ws, { ports: w.ports, home: w.home, apply });
      expect(r.entries[0]).toMatchObject({ name: 'hermes-a', id: H1, source: 'herdr' });
      expect(r.entries[1]).toMatchObject({ name: 'hermes-a2', outcome: 'unresolved', reason: expect.stringContaining('claimed-by-other-row') });
    }
  });
});
