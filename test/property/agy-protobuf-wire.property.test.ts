import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ProtoField, readProtoFields } from '../../src/agents/agy/protobuf-wire.js';
import { decodeAgyTrajectory } from '../../src/agents/agy/agy-trajectory.js';
import { encodeProto } from '../helpers/adapter-agy-proto.js';

const field: fc.Arbitrary<ProtoField> = fc.oneof(
  fc.record({ field: fc.integer({ min: 1, max: 2 ** 29 - 1 }), wire: fc.constant('varint' as const), value: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }) }),
  fc.record({ field: fc.integer({ min: 1, max: 2 ** 29 - 1 }), wire: fc.constant('bytes' as const), value: fc.uint8Array({ maxLength: 40 }) }),
  fc.record({ field: fc.integer({ min: 1, max: 2 ** 29 - 1 }), wire: fc.constant('fixed' as const), value: fc.oneof(fc.uint8Array({ minLength: 4, maxLength: 4 }), fc.uint8Array({ minLength: 8, maxLength: 8 })) }),
);

describe('protobuf wire reader: safety laws', () => {
  it('never throws and never hands out a byte outside the input (hostile, truncated or random bytes)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(16), fc.nat(16), (body, before, after) => {
        // The input is a window of a larger buffer: a reader past its end would reach the sentinel bytes around it.
        const big = new Uint8Array(before + body.length + after).fill(0xff);
        big.set(body, before);
        const window = big.subarray(before, before + body.length);
        const fields = readProtoFields(window);
        for (const f of fields ?? []) {
          if (f.wire === 'varint') continue;
          expect(f.value.byteOffset).toBeGreaterThanOrEqual(window.byteOffset);
          expect(f.value.byteOffset + f.value.length).toBeLessThanOrEqual(window.byteOffset + window.length);
        }
        expect(() => decodeAgyTrajectory(window)).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });

  it('reads back exactly what an encoder wrote, and every strict prefix cut inside a field is malformed (unknown), not a guess', () => {
    fc.assert(
      fc.property(fc.array(field, { minLength: 1, maxLength: 8 }), (fields) => {
        const bytes = encodeProto(fields);
        expect(readProtoFields(bytes)).toEqual(fields);
        const last = encodeProto(fields.slice(0, -1)).length;
        for (let cut = last + 1; cut < bytes.length; cut += 1) expect(readProtoFields(bytes.subarray(0, cut))).toBeNull();
      }),
      { numRuns: 500 },
    );
  });

  it('a well-formed prefix of garbage-ended input is not returned: a malformed tail makes the whole message unknown', () => {
    const ok = encodeProto([{ field: 7, wire: 'bytes', value: new TextEncoder().encode('file:///w') }]);
    expect(readProtoFields(ok)).not.toBeNull();
    for (const tail of [[0x0a, 0x05, 0x61], [0x0b], [0x80], [0x00, 0x01], [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]]) {
      expect(readProtoFields(Uint8Array.from([...ok, ...tail])), JSON.stringify(tail)).toBeNull();
    }
  });
});
