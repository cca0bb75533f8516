import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdOrderGate } from '../../../src/gate/id-order-gate.js';
import { type IdOrderMarker, idOrderMarkerText, isIdOrderMarkerFileName, parseIdOrderMarker } from '../../../src/gate/id-order-marker.js';
import { idOrderCloseCommand } from '../../../src/gate/id-order-refusal.js';
import { idOrderWaitFromEnv } from '../../../src/gate/id-order-wait.js';
import { gateKit } from '../../helpers/lifecycle-gate-kit.js';

const MARKER: IdOrderMarker = {
  version: 1, owner_pid: 42, owner_started_at_ms: 1, owner_start_ticks: null, token: randomUUID(), session: 'Reviewer "A"', herdr_name: 'reviewer-a',
  herdr_server: 'srv.1', attempt: 1_700_000_000, cwd: '/w', pane_id: 'w1:p2', written_at: '2026-01-01T00:00:00.000Z',
};

describe('id-order markers', () => {
  it('round-trips, and the close command is built only from herdr-safe fields', () => {
    const parsed = parseIdOrderMarker(idOrderMarkerText(MARKER));
    expect(parsed).toEqual({ ok: true, marker: MARKER });
    expect(idOrderCloseCommand(MARKER)).toBe('herdr --session srv.1 pane close w1:p2');
    expect(idOrderCloseCommand({ ...MARKER, pane_id: null })).toBe('herdr --session srv.1 pane close "$(herdr --session srv.1 agent get reviewer-a | jq -r .result.agent.pane_id)"');
  });

  it('any file content parses to a marker whose command fields are herdr-safe, or to a problem; it never throws', () => {
    const safe = /^[A-Za-z0-9:._\- ]*$/;
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.record({ ...Object.fromEntries(Object.entries(MARKER).map(([k, v]) => [k, fc.oneof(fc.constant(v), fc.jsonValue())])) })), (value) => {
        const r = parseIdOrderMarker(JSON.stringify(value) ?? 'null');
        if (r.ok) {
          expect(safe.test(`${r.marker.herdr_server} ${r.marker.herdr_name} ${r.marker.pane_id ?? ''}`)).toBe(true);
        } else {
          expect(r.problem.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
    expect(parseIdOrderMarker('{').ok).toBe(false);
  });

  it('only `<pid>-<uuid>.json` names are markers', () => {
    expect(isIdOrderMarkerFileName(`42-${MARKER.token}.json`)).toBe(true);
    for (const n of ['gate.lock', `.42-${MARKER.token}.json.x.tmp`, '42.json', `../42-${MARKER.token}.json`]) expect(isIdOrderMarkerFileName(n)).toBe(false);
  });

  it('MAM_ID_ORDER_WAIT_S: seconds (fractions allowed), the default when unset, capped at an hour', () => {
    expect(idOrderWaitFromEnv({})).toEqual({ seconds: 60, source: 'default' });
    expect(idOrderWaitFromEnv({ MAM_ID_ORDER_WAIT_S: ' 2.5 ' })).toEqual({ seconds: 2.5, source: 'env', raw: ' 2.5 ' });
    expect(idOrderWaitFromEnv({ MAM_ID_ORDER_WAIT_S: '99999' }).seconds).toBe(3600);
    for (const bad of ['-1', '1e3', 'NaN', 'Infinity', '0x10']) expect(idOrderWaitFromEnv({ MAM_ID_ORDER_WAIT_S: bad }).source).toBe('invalid');
  });

  it('a request herdr would reject is a fault, before any marker is written', async () => {
    const k = await gateKit();
    try {
      await expect(k.gate().enter({ session: 'x', cwd: k.ws, herdrServer: 'a b' })).rejects.toMatchObject({ code: 'ID_ORDER_INVALID_REQUEST' });
      await expect(k.gate().enter({ session: 'x', cwd: k.ws, herdrServer: '-x' })).rejects.toMatchObject({ code: 'ID_ORDER_INVALID_REQUEST' });
      expect(existsSync(join(k.ws, '.mam', 'id-order'))).toBe(false);
    } finally {
      await k.dispose();
    }
  });
});
