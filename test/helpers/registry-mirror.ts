import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { enableSqliteUri } from '../../src/node/sqlite-uri.js';

/** What the SQLite mirror holds, in YAML order: each row's JSON, the orchestrator ids, the other top-level keys, the YAML hash. */
export interface MirrorContent {
  rows: unknown[];
  names: Array<{ name: string; status: string | null }>;
  orchestrators: string[];
  extras: unknown;
  hash: string | null;
}

/** Reads the mirror read-only (no sidecars are made for a DELETE-journal database at rest); null when there is none. */
export function readMirror(dbPath: string): MirrorContent | null {
  if (!existsSync(dbPath)) return null;
  // The first open in a process fixes URI support for all later ones: never let a test helper be the one that turns it off.
  enableSqliteUri();
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare<[], { name: string; status: string | null; row_json: string }>('SELECT name, status, row_json FROM sessions ORDER BY seq').all();
    const orchestrators = db.prepare<[], string>('SELECT uuid FROM orchestrator_uuids ORDER BY seq').pluck().all();
    const meta = new Map(db.prepare<[], { key: string; value: string }>('SELECT key, value FROM registry_meta').all().map((m) => [m.key, m.value]));
    return {
      rows: rows.map((r) => JSON.parse(r.row_json) as unknown),
      names: rows.map((r) => ({ name: r.name, status: r.status })),
      orchestrators,
      extras: JSON.parse(meta.get('extra_json') ?? '{}') as unknown,
      hash: meta.get('yaml_sha256') ?? null,
    };
  } finally {
    db.close();
  }
}

/** The mirror content a registry document should produce (JSON semantics, as the mirror stores JSON). */
export function expectedMirror(doc: Record<string, unknown>): Omit<MirrorContent, 'hash' | 'names'> {
  const extras: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) if (k !== 'herdr_sessions' && k !== 'orchestrator_uuids') extras[k] = v;
  return {
    rows: JSON.parse(JSON.stringify(doc['herdr_sessions'] ?? [])) as unknown[],
    orchestrators: (doc['orchestrator_uuids'] as string[] | undefined) ?? [],
    extras: JSON.parse(JSON.stringify(extras)) as unknown,
  };
}
