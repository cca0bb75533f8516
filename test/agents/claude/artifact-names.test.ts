import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTelemetryOf, isTodoOf } from '../../../src/agents/claude/artifact-names.js';

const A = '94849f2b-9545-4e05-8416-865e3eb95515';
const B = 'c43320d8-b353-4f03-9b52-c667e580d55a';

describe('claude artifact names', () => {
  it('telemetry: the session id in the middle is the owner; the event uuid at the end is not', () => {
    expect(isTelemetryOf(`1p_failed_events.${A}.${B}.json`, A)).toBe(true);
    expect(isTelemetryOf(`1p_failed_events.${A}.${B}.json`, B)).toBe(false);
    expect(isTelemetryOf(`${A}.${B}.json`, A)).toBe(false);
    expect(isTelemetryOf(`x.${A}.json`, A)).toBe(false);
    expect(isTelemetryOf(`x.${A}.y.txt`, A)).toBe(false);
  });

  it('todos: `<id>-….json` only', () => {
    expect(isTodoOf(`${A}-agent-${A}.json`, A)).toBe(true);
    expect(isTodoOf(`${B}-agent-${A}.json`, A)).toBe(false);
    expect(isTodoOf(`${A}-.json`, A)).toBe(false);
    expect(isTodoOf(`${A}.json`, A)).toBe(false);
  });

  it('law: a telemetry or todo name of another session never matches', () => {
    fc.assert(
      fc.property(fc.constantFrom('1p_failed_events', 'x', 'a.b'), fc.boolean(), (prefix, idIsEvent) => {
        const [mine, other] = [randomUUID(), randomUUID()];
        const name = idIsEvent ? `${prefix}.${other}.${mine}.json` : `${prefix}.${other}.${randomUUID()}.json`;
        expect(isTelemetryOf(name, mine)).toBe(false);
        expect(isTodoOf(`${other}-agent-${mine}.json`, mine)).toBe(false);
      }),
    );
  });
});
