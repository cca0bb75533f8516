import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { emitTopLevel } from '../../src/registry/yaml-emit.js';
import { fastParseYaml } from '../../src/registry/yaml-fast-parse.js';
import { fullParseYaml } from '../../src/registry/yaml-full-parse.js';
import { orderedJson, plainDoc } from '../helpers/registry-arbitraries.js';

function emit(doc: Record<string, unknown>): string {
  return Object.entries(doc).map(([k, v]) => emitTopLevel(k, v)).join('');
}

describe('registry YAML emitter and fast parser', () => {
  it('the fast parser reads everything the emitter writes, exactly, key order included', () => {
    fc.assert(
      fc.property(plainDoc, (doc) => {
        const parsed = fastParseYaml(emit(doc));
        expect(parsed, emit(doc)).toBeDefined();
        expect(orderedJson(parsed?.value)).toBe(orderedJson(doc));
      }),
      { numRuns: 400 },
    );
  });

  it('an independent YAML 1.1 parser reads the emitter\'s output as the same data', () => {
    fc.assert(
      fc.property(plainDoc, (doc) => {
        expect(orderedJson(fullParseYaml(emit(doc)))).toBe(orderedJson(doc));
      }),
      { numRuns: 300 },
    );
  });

  it('on YAML another writer produced, the fast parser either steps aside or agrees with the full parser', () => {
    const styles = [{}, { indentSeq: false }, { collectionStyle: 'flow' as const }, { defaultStringType: 'QUOTE_SINGLE' as const }, { indent: 4 }];
    let answered = 0;
    fc.assert(
      fc.property(plainDoc, fc.constantFrom(...styles), (doc, style) => {
        const text = stringify(doc, { version: '1.1', lineWidth: 0, ...style });
        // The yaml package writes a one-space string as a bare trailing space (`- -  `), which it alone reads back as
        // " " (PyYAML reads null, and so does the fast parser): not a file anyone else writes, so not compared.
        fc.pre(!/ $/m.test(text));
        const fast = fastParseYaml(text);
        if (fast !== undefined) {
          answered++;
          expect(orderedJson(fast.value), text).toBe(orderedJson(fullParseYaml(text)));
        }
      }),
      { numRuns: 400 },
    );
    // The comparison must have happened, not only the stepping aside.
    expect(answered).toBeGreaterThan(50);
  });
});
