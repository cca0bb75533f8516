// Random bytes and YAML-ish text as `.mam/agent-sessions.yaml`: snapshot() gives a valid registry or throws a MamError
// (RegistryCorruptError for an unreadable file), never another exception; update() on an unreadable file throws and
// leaves its bytes as they were.
import fc from 'fast-check';
import { readFile, writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { expect } from 'vitest';
import { MamError } from '../../src/errors.js';
import { RegistryCorruptError, SessionRegistry } from '../../src/registry/index.js';
import { validateDocument } from '../../src/registry/validate-registry.js';
import { TRICKY, registryDoc } from './registry-arbitraries.js';

const utf8 = new TextEncoder();

// A valid document as YAML, then damaged: cut short, a byte flipped, a fragment spliced in.
const damagedYaml = fc
  .tuple(registryDoc, fc.nat(), fc.constantFrom('cut', 'flip', 'splice', 'none'), fc.constantFrom(...TRICKY, ':', '- ', '\t', '  ', '{', '[', '"', "'", '&a', '*a', '!!binary'))
  .map(([doc, at, how, frag]) => {
    const text = stringify(doc, { version: '1.1', lineWidth: 0 });
    const i = text.length === 0 ? 0 : at % text.length;
    const bytes = utf8.encode(how === 'cut' ? text.slice(0, i) : how === 'splice' ? text.slice(0, i) + frag + text.slice(i) : text);
    if (how === 'flip' && bytes.length > 0) bytes[i % bytes.length] = (bytes[i % bytes.length] ?? 0) ^ (1 << (at % 8));
    return bytes;
  });

const yamlish = fc
  .array(fc.oneof(fc.constantFrom('herdr_sessions:', 'orchestrator_uuids:', '- name: x', '  status: running', '  agent: claude', '- ', '  ', '---', '...', '? ', ': ', '&a [*a]', '<<: *a'), fc.constantFrom(...TRICKY)), { maxLength: 8 })
  .map((lines) => utf8.encode(lines.join('\n')));

/** File contents: raw bytes, YAML-ish lines, damaged real documents, and intact ones. */
export const registryBytesArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }).map((s) => utf8.encode(s)),
  yamlish,
  damagedYaml,
  registryDoc.map((doc) => utf8.encode(stringify(doc, { version: '1.1', lineWidth: 0 }))),
);

/** Runs the property for `numRuns` files in the registry file `yaml` of workspace `ws`. */
export async function checkRegistryBytes(ws: string, yaml: string, numRuns: number): Promise<{ valid: number; corrupt: number }> {
  const seen = { valid: 0, corrupt: 0 };
  await fc.assert(
    fc.asyncProperty(registryBytesArb, async (bytes) => {
      await writeFile(yaml, bytes);
      const registry = new SessionRegistry(ws, { lockTimeoutMs: 5_000 });
      try {
        let state: unknown;
        try {
          state = await registry.snapshot();
        } catch (err) {
          expect(err, String(err)).toBeInstanceOf(MamError);
          expect(err).toBeInstanceOf(RegistryCorruptError);
          seen.corrupt += 1;
          await expect(registry.update(() => undefined)).rejects.toBeInstanceOf(RegistryCorruptError);
          expect(Buffer.from(await readFile(yaml)).equals(Buffer.from(bytes))).toBe(true);
          return;
        }
        seen.valid += 1;
        expect(validateDocument(state).fileIssues).toEqual([]);
        expect(validateDocument(state).invalidRows).toEqual([]);
      } finally {
        registry.close();
      }
    }),
    { numRuns },
  );
  return seen;
}
