// The law of issue 31 as a property: with hostile files (links, hard links, directories, FIFOs, foreign databases) at
// random registry names, no registry call writes anything anywhere — the whole tree (workspace and victims) is
// byte-identical afterwards — an update is refused naming one of the planted paths, and the foreign rows stay.
import fc from 'fast-check';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { isMamError } from '../../src/errors.js';
import { SessionRegistry } from '../../src/registry/index.js';
import { makeRow } from './registry-fixtures.js';
import { foreignRows, HOSTILE_KINDS, type HostileKind, makeVictims, placeable, placeHostile, REGISTRY_NAMES, type RegistryName, treeDigest } from './registry-links.js';

/** A template (one registry with a row, and the victims) to copy per case; `dispose` removes it. */
export async function registryLinksTemplate(): Promise<{ dir: string; dispose: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'mam-reg-links-prop-'));
  makeVictims(join(dir, 'victims'));
  const ws = join(dir, 'ws');
  const reg = new SessionRegistry(ws, { createWorkspace: true });
  await reg.update((d) => {
    d.herdr_sessions.push(makeRow('a', 'claude', ws));
  });
  reg.close();
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

const placement = fc
  .tuple(fc.constantFrom(...REGISTRY_NAMES), fc.constantFrom(...HOSTILE_KINDS))
  .filter(([name, kind]) => placeable(name, kind) && !(name === '.' && kind === 'directory'));

const scenario = fc.record({
  // `.mam/` itself placed last wins over the names inside it; a name appears once.
  placements: fc.uniqueArray(placement, { minLength: 1, maxLength: 3, selector: ([name]) => name }),
  op: fc.constantFrom('update', 'checkFiles', 'snapshot-then-update'),
});

/** Runs the property `runs` times (fast-check prints the seed on failure; `seed` replays one). */
export async function checkRegistryLinks(templateDir: string, runs: number, seed?: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(scenario, async ({ placements, op }) => {
      const base = mkdtempSync(join(tmpdir(), 'mam-reg-links-case-'));
      try {
        cpSync(templateDir, base, { recursive: true });
        const ws = join(base, 'ws');
        const mam = join(ws, '.mam');
        const victims = { dir: join(base, 'victims'), db: join(base, 'victims', 'other-app', 'data.db'), mam: join(base, 'victims', 'other-mam') };
        // `.mam/` replaced first (when it is), so the names inside are placed in whatever stands there after.
        const ordered = [...placements].sort(([a], [b]) => (a === '.' ? -1 : b === '.' ? 1 : 0));
        const planted: string[] = [];
        let dirReplaced = false;
        for (const [name, kind] of ordered as Array<[RegistryName, HostileKind]>) {
          if (dirReplaced && name !== '.') continue;
          planted.push(placeHostile(mam, name, kind, victims));
          if (name === '.') dirReplaced = true;
        }
        const before = treeDigest(base);
        const reg = new SessionRegistry(ws, { lockTimeoutMs: 2000 });
        try {
          if (op === 'snapshot-then-update') await reg.snapshot().catch(() => undefined);
          const run = op === 'checkFiles' ? reg.checkFiles() : reg.update((d) => {
            d.herdr_sessions.push(makeRow('b', 'codex', ws));
          });
          const err = await run.then(() => null, (e: unknown) => e);
          // Refused, as a MamError naming a planted path — except a database copied in place of the YAML, which only
          // the update reads (an unreadable registry: REGISTRY_CORRUPT), checkFiles passing it as a regular file.
          const yamlDbOnly = placements.length === 1 && placements[0]?.[0] === 'agent-sessions.yaml' && placements[0][1] === 'foreign-db';
          if (!(op === 'checkFiles' && yamlDbOnly)) {
            expect(isMamError(err)).toBe(true);
            const code = isMamError(err) ? err.code : '';
            expect(['REGISTRY_FILE_REFUSED', 'REGISTRY_CORRUPT']).toContain(code);
            expect(planted).toContain(isMamError(err) ? err.data['path'] : undefined);
          }
        } finally {
          reg.close();
        }
        expect(treeDigest(base)).toBe(before);
        expect(foreignRows(victims.db)).toBe(3);
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    }),
    { numRuns: runs, ...(seed === undefined ? {} : { seed }) },
  );
}
