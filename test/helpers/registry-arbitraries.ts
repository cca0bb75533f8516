import fc from 'fast-check';
import { AGENT_NAMES } from '../../src/ids/agent-names.js';

// Strings that trip YAML emitters and readers: YAML 1.1 booleans and nulls, timestamps, numbers, indicators, breaks.
export const TRICKY = [
  '', ' ', 'yes', 'No', 'ON', 'off', 'y', 'n', 'true', 'NULL', '~', '-', '- x', '? x', ': x', 'a: b', 'a #b', '#x', '&a', '*a', '!x',
  '|', '>', '%x', '@x', '`x', '[x]', '{x}', '"q"', "'q'", '2026-10-01T00:00:00Z', '2026-10-01', '1:20', '0777', '0x1F', '1e3',
  '1.5', '.5', '.inf', '-.inf', '.nan', '+1', '-0', '=', '<<', 'line\nbreak', 'tab\there', 'cr\rhere', '\u2028', '\u0085', '\ufeff',
  'nul\0', 'trailing ', ' leading', 'two  spaces', 'é', '日本語', '😀', 'a7800001-0000-4000-8000-000000000001',
];

export const text = fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ maxLength: 12 }));
export const key = fc.oneof(text, fc.stringMatching(/^[a-z_][a-z0-9_]{0,12}$/)).filter((k) => k !== '__proto__');
const anyNumber = fc.oneof(fc.integer(), fc.double().map((x) => (Object.is(x, -0) ? 0 : x)), fc.constantFrom(1700000000, 0.1, 1e21, 5e-324));
// Numbers the yaml package writes so that PyYAML reads them back as numbers (it writes 1e+21 and 5e-324 without the
// dot PyYAML needs, which the registry's own emitter adds): for files the tests write "as another tool".
const foreignNumber = anyNumber.filter((x) => !Number.isFinite(x) || String(x).includes('.') || (Number.isInteger(x) && Math.abs(x) < 1e21));

// The yaml package writes a `<<` key plain, which YAML 1.1 readers (PyYAML too) take for a merge key; a first key
// starting with U+FEFF raw, where every reader takes it for a byte-order mark; and a string of spaces in a nested list
// as bare trailing spaces, which only it reads back as that string.
const foreignKey = key.filter((k) => k !== '<<' && !k.startsWith('\ufeff'));
const foreignText = text.filter((t) => t === '' || t.trim() !== '');

function plainOf(num: fc.Arbitrary<number>, keys: fc.Arbitrary<string>, texts: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  return fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, texts, num, fc.boolean(), fc.constant(null), tie('list'), tie('map')),
    list: fc.array(tie('value'), { maxLength: 4 }),
    map: fc.dictionary(keys, tie('value'), { maxKeys: 4 }),
  })).value;
}

/** Plain JSON-like data (what a registry holds), nested a few levels. */
export const plainValue = plainOf(anyNumber, key, text);

/** Plain data that the yaml package can write for PyYAML-faithful reading (see foreignNumber and foreignKey). */
export const foreignValue = plainOf(foreignNumber, foreignKey, foreignText);

/** A top-level document: a mapping with at least one key. */
export const plainDoc = fc.dictionary(key, plainValue, { minKeys: 1, maxKeys: 5 });

const KNOWN = new Set(['name', 'status', 'role', 'agent', 'herdr_session', 'herdr_server', 'herdr_workspace', 'herdr_session_created_at', 'herdr_session_epoch', 'session_id_source', 'session_id_verified', 'pane']);
const extraKey = foreignKey.filter((k) => !KNOWN.has(k) && !k.endsWith('_own'));

/** A valid row (known fields in a random subset) with unknown fields of any plain shape. */
export const row = fc
  .record(
    {
      status: fc.constantFrom('running', 'stopped', 'terminated'),
      role: fc.oneof(foreignText, fc.constant(null)),
      agent: fc.constantFrom(...AGENT_NAMES),
      herdr_server: foreignText,
      herdr_session_created_at: fc.constantFrom('2026-10-01T00:00:00Z', '2026-10-02T00:00:00Z'),
      herdr_session_epoch: fc.integer({ min: 0, max: 2_000_000_000 }),
      session_id_verified: fc.boolean(),
      pane: fc.record({ cwd: foreignText, pid: fc.integer({ min: 1, max: 99999 }), cmd: foreignText }, { requiredKeys: [] }),
    },
    { requiredKeys: ['status'] },
  )
  .chain((known) => fc.dictionary(extraKey, foreignValue, { maxKeys: 3 }).map((extra) => ({ ...known, ...extra })));

/** A registry document with unique row names, orchestrator ids and extra top-level keys, as another tool may write it. */
export const registryDoc = fc
  .record({
    rows: fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/), row), { selector: ([n]) => n, maxLength: 6 }),
    orchestrators: fc.array(fc.uuid(), { maxLength: 3 }),
    extra: fc.dictionary(foreignKey.filter((k) => k !== 'herdr_sessions' && k !== 'orchestrator_uuids'), foreignValue, { maxKeys: 3 }),
    extraFirst: fc.boolean(),
  })
  .map(({ rows, orchestrators, extra, extraFirst }) => {
    const lists = { orchestrator_uuids: orchestrators, herdr_sessions: rows.map(([name, r]) => ({ name, ...r })) };
    return (extraFirst ? { ...extra, ...lists } : { ...lists, ...extra }) as Record<string, unknown>;
  });

/** JSON that keeps key order and tells NaN and the infinities apart, for order-sensitive comparisons. */
export function orderedJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'number' && !Number.isFinite(x) ? `#${String(x)}` : x));
}
