import fc from 'fast-check';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SessionRow, SessionRegistry } from '../../src/registry/index.js';
import { fullParseYaml } from '../../src/registry/yaml-full-parse.js';
import { foreignValue, orderedJson, plainValue, registryDoc } from '../helpers/registry-arbitraries.js';
import { makeWorkspace } from '../helpers/registry-fixtures.js';
import { expectedMirror, readMirror } from '../helpers/registry-mirror.js';

// What a reader sees for a document: the two lists default to empty when absent.
function asState(doc: Record<string, unknown>): Record<string, unknown> {
  return { ...doc, herdr_sessions: doc['herdr_sessions'] ?? [], orchestrator_uuids: doc['orchestrator_uuids'] ?? [] };
}

describe('registry round trips', () => {
  let ws: string;
  let yaml: string;
  let db: string;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ ws, yaml, db, dispose } = await makeWorkspace('mam-reg-prop-'));
  });
  afterAll(async () => {
    await dispose();
  });

  it('YAML → registry → YAML keeps every field, in order, whoever wrote the file', async () => {
    await fc.assert(
      fc.asyncProperty(registryDoc, fc.boolean(), fc.nat(), plainValue, async (doc, flow, pick, value) => {
        // The file as another writer (PyYAML-like block style, or flow style) left it.
        await writeFile(yaml, stringify(doc, { version: '1.1', lineWidth: 0, ...(flow ? { collectionStyle: 'flow' as const } : {}) }));
        const registry = new SessionRegistry(ws);
        expect(orderedJson(await registry.snapshot())).toBe(orderedJson(asState(doc)));

        // One change to one row: every other field, row and key stays, in its place.
        const rows = doc['herdr_sessions'] as Array<Record<string, unknown>>;
        const target = rows.length === 0 ? undefined : rows[pick % rows.length];
        await registry.update((d) => {
          const row = d.herdr_sessions.find((r) => r.name === target?.['name']);
          if (row !== undefined) row['note_added'] = value;
        });
        if (target !== undefined) target['note_added'] = value;
        const after = fullParseYaml(await readFile(yaml, 'utf8')) as Record<string, unknown>;
        const expected = target === undefined ? doc : { ...doc, herdr_sessions: rows, orchestrator_uuids: doc['orchestrator_uuids'] };
        expect(orderedJson(asState(after))).toBe(orderedJson(asState(expected)));
      }),
      { numRuns: 60 },
    );
  });

  type Op = { kind: string; apply: (d: Record<string, unknown> & { herdr_sessions: SessionRow[]; orchestrator_uuids: string[] }) => void };
  const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,7}$/);
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.tuple(name, fc.constantFrom('claude', 'agy', 'codex'), foreignValue).map(([n, agent, extra]): Op => ({
      kind: 'add',
      apply: (d) => {
        if (!d.herdr_sessions.some((r) => r.name === n)) d.herdr_sessions.push({ name: n, status: 'running', agent, extra } as SessionRow);
      },
    })),
    fc.nat().map((i): Op => ({ kind: 'remove', apply: (d) => void d.herdr_sessions.splice(i % Math.max(1, d.herdr_sessions.length), 1) })),
    fc.tuple(fc.nat(), fc.constantFrom('running', 'stopped', 'terminated')).map(([i, status]): Op => ({
      kind: 'status',
      apply: (d) => {
        const r = d.herdr_sessions[i % Math.max(1, d.herdr_sessions.length)];
        if (r !== undefined) r.status = status;
      },
    })),
    fc.tuple(fc.nat(), name).map(([i, n]): Op => ({
      kind: 'rename',
      apply: (d) => {
        const r = d.herdr_sessions[i % Math.max(1, d.herdr_sessions.length)];
        if (r !== undefined && !d.herdr_sessions.some((x) => x.name === n)) r.name = n;
      },
    })),
    fc.tuple(fc.nat(), fc.nat()).map(([i, j]): Op => ({
      kind: 'move',
      apply: (d) => {
        const n = d.herdr_sessions.length;
        const [r] = n === 0 ? [] : d.herdr_sessions.splice(i % n, 1);
        if (r !== undefined) d.herdr_sessions.splice(j % n, 0, r);
      },
    })),
    fc.uuid().map((u): Op => ({ kind: 'orc+', apply: (d) => void d.orchestrator_uuids.push(u) })),
    fc.constant<Op>({ kind: 'orc-', apply: (d) => void d.orchestrator_uuids.shift() }),
    fc.tuple(fc.constantFrom('alpha', 'beta'), foreignValue).map(([k, v]): Op => ({ kind: 'top', apply: (d) => void (d[k] = v) })),
    fc.constant<Op>({ kind: 'noop', apply: () => undefined }),
    fc.constant<Op>({ kind: 'throw', apply: () => {
      throw new Error('mutator gave up');
    } }),
    fc.constant<Op>({ kind: 'invalid', apply: (d) => {
      const r = d.herdr_sessions[0];
      d.herdr_sessions.push(r === undefined ? ({ name: 'x', status: 'bogus' } as unknown as SessionRow) : { ...r });
    } }),
    fc.constant<Op>({ kind: 'external', apply: () => undefined }),
  );

  it('the mirror equals the YAML (and the YAML the model) after any sequence of operations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        await rm(yaml, { force: true });
        await rm(db, { force: true });
        const registry = new SessionRegistry(ws);
        let model: Record<string, unknown> = { orchestrator_uuids: [], herdr_sessions: [] };
        for (const o of ops) {
          if (o.kind === 'external') {
            // Another tool rewrites the YAML (same content, its own formatting): the mirror must catch up on the next update.
            await writeFile(yaml, stringify(model, { version: '1.1', lineWidth: 0, collectionStyle: 'flow' }));
            continue;
          }
          const next = structuredClone(model) as Parameters<Op['apply']>[0];
          let failed = false;
          try {
            o.apply(next);
          } catch {
            failed = true;
          }
          const outcome = await registry.update((d) => o.apply(d)).then(() => 'ok', () => 'refused');
          expect(outcome).toBe(failed || o.kind === 'invalid' ? 'refused' : 'ok');
          if (outcome === 'ok') model = next;
          const bytes = await readFile(yaml).catch(() => null);
          if (bytes === null) {
            expect(model).toEqual({ orchestrator_uuids: [], herdr_sessions: [] });
            continue;
          }
          const doc = fullParseYaml(bytes.toString('utf8')) as Record<string, unknown>;
          expect(orderedJson(asState(doc))).toBe(orderedJson(model));
          // Only an update that ran to the end promises a mirror in step.
          if (outcome === 'ok') {
            const mirror = readMirror(db);
            expect({ rows: mirror?.rows, orchestrators: mirror?.orchestrators, extras: mirror?.extras }).toEqual(expectedMirror(doc));
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});
