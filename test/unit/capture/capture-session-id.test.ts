import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureSessionId, type SessionIdCaptureInput } from '../../../src/capture/index.js';
import type { HerdrAgentInfo } from '../../../src/ports/herdr.js';
import type { SessionRow } from '../../../src/registry/index.js';
import { type AutopinWorld, autopinWorld, EPOCH } from '../../helpers/autopin-kit.js';
import { makeRow } from '../../helpers/registry-fixtures.js';

const H1 = 'a1000001-0000-4000-8000-000000000001';
const H2 = 'a1000002-0000-4000-8000-000000000002';
const UNKNOWN = 'a1000009-0000-4000-8000-000000000009';

function live(value: string | null, agent = 'hermes'): HerdrAgentInfo {
  const base = { terminal_id: 't1', agent_status: 'idle', workspace_id: 'w1', tab_id: 'w1:t1', pane_id: 'w1:p1', focused: false, state_change_seq: 1, revision: 1 } as const;
  return value === null ? base : { ...base, agent_session: { source: `herdr:${agent}`, agent, kind: 'id', value } };
}

describe('captureSessionId: the one capture rule of onboarding, stop and AutoPin', () => {
  let w: AutopinWorld;
  let cwd: string;
  let row: SessionRow;
  let input: (over?: Partial<SessionIdCaptureInput>) => SessionIdCaptureInput;
  beforeEach(async () => {
    w = await autopinWorld('capture');
    cwd = join(w.ws, 'a');
    mkdirSync(cwd);
    row = makeRow('hermes-a', 'hermes', cwd, { epoch: EPOCH });
    input = (over = {}) => ({ ports: w.ports, agent: 'hermes', row, live: null, ctx: { workspace: cwd, home: w.home, epoch: EPOCH }, claimed: [], ...over });
  });
  afterEach(async () => {
    await w.dispose();
  });

  it("herdr's report comes first when it verifies on disk, even with another candidate there", async () => {
    w.hermes([[H1, cwd, EPOCH + 10], [H2, cwd, EPOCH + 20]]);
    expect(await captureSessionId(input({ live: live(H1.toUpperCase()) }))).toEqual({ kind: 'captured', id: H1, source: 'herdr' });
  });

  it('without a report, the one candidate on disk', async () => {
    w.hermes([[H1, cwd, EPOCH + 10]]);
    expect(await captureSessionId(input())).toEqual({ kind: 'captured', id: H1, source: 'disk' });
    expect(await captureSessionId(input({ live: live(H2, 'codex') }))).toEqual({ kind: 'captured', id: H1, source: 'disk' });
  });

  it("a report another row records, not on disk, or implausible falls back to the disk, saying why", async () => {
    w.hermes([[H1, cwd, EPOCH + 10], [H2, cwd, EPOCH + 20]]);
    expect(await captureSessionId(input({ live: live(H2), claimed: [H2] }))).toEqual({ kind: 'captured', id: H1, source: 'disk' });
    const claimedBoth = await captureSessionId(input({ live: live(H2), claimed: [H2, H1.toUpperCase()] }));
    expect(claimedBoth).toMatchObject({ kind: 'none', reason: expect.stringMatching(/^herdr reported an id another row records; /) });
    expect(await captureSessionId(input({ live: live(UNKNOWN) }))).toMatchObject({ kind: 'none', reason: expect.stringMatching(/^herdr reported an id not verified on disk; /) });
    expect(await captureSessionId(input({ live: live('memory') }))).toMatchObject({ kind: 'none', reason: expect.stringMatching(/^herdr reported an implausible id; /) });
  });

  it('the claimed ids given win over a context that names none', async () => {
    w.hermes([[H1, cwd, EPOCH + 10]]);
    const got = await captureSessionId(input({ claimed: [H1], ctx: { workspace: cwd, home: w.home, epoch: EPOCH, siblingClaimedIds: [] } }));
    expect(got).toMatchObject({ kind: 'none', candidates: [H1] });
  });
});
