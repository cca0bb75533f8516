// docs/architecture.md is written from the code: its layer table names the layers of scripts/import-graph.mjs in
// their order, and every `src/…` path it names exists. A layer added or renamed, or a file moved, fails here until the
// map says so.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LAYERS } from '../../scripts/import-graph.mjs';

const ROOT = new URL('../../', import.meta.url);
const map = readFileSync(new URL('docs/architecture.md', ROOT), 'utf8');

describe('docs/architecture.md', () => {
  it('its layer table is LAYERS, bottom to top', () => {
    const section = map.slice(map.indexOf('## Layers'), map.indexOf('\n## ', map.indexOf('## Layers') + 1));
    const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| layer') && !l.startsWith('| ---'));
    expect(rows.map((r) => r.split('|')[1]?.trim())).toEqual(LAYERS.map((l) => l.name));
  });

  it('every src/ path it names exists', () => {
    const paths = [...map.matchAll(/`(src\/[\w./<>-]+)`/g)].map((m) => m[1] as string).filter((p) => !p.includes('<'));
    expect(paths.length).toBeGreaterThan(5);
    expect(paths.filter((p) => !existsSync(new URL(p, ROOT)))).toEqual([]);
  });
});
