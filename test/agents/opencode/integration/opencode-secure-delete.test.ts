// Deleted text stayed readable: after a purge a byte grep of opencode.db still found the purged id and its prompts in freed
// pages (none through SQL). The purge's own connection now sets secure_delete and truncates the WAL it can.
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../../../../src/agents/get-adapter.js';
import { materializeStage } from '../../../helpers/real-stage.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const ID = 'ses_dd6159fa8ffeNLy5GqcBDiUnlX';
const OTHER = 'ses_dd615360cffeFzbK9W1oQVbVv9';
const adapter = getAdapter('opencode');

function stage(): { dir: string; ctx: { workspace: string; home: string; env: Record<string, string> } } {
  const root = mkdtempSync(join(tmpdir(), 'mam-oc-secdel-'));
  roots.push(root);
  const s = materializeStage('opencode/03-two-sessions-before-delete', root);
  return { dir: join(s.home, '.local/share/opencode'), ctx: { workspace: join(root, 'ws-opencode2'), home: s.home, env: { ...s.env, PATH: '' } } };
}

function hits(dir: string, needles: readonly string[]): string[] {
  return readdirSync(dir)
    .filter((n) => n.startsWith('opencode.db'))
    .flatMap((n) => needles.filter((x) => readFileSync(join(dir, n)).includes(Buffer.from(x))).map((x) => `${n}: ${x}`));
}

describe('opencode: deleted text stays readable', () => {
  const needles = [ID, '"second ws"', 'resume by id'];

  it('a byte grep of opencode.db after the purge finds neither the id nor its prompts; the other session stays', async () => {
    const { dir, ctx } = stage();
    expect(hits(dir, needles).length).toBeGreaterThan(0);
    await adapter.purgeArtifacts(ID, ctx);
    expect(await adapter.residualArtifacts(ID, ctx)).toEqual([]);
    expect(hits(dir, needles)).toEqual([]);
    expect(hits(dir, [OTHER, 'third session'])).toHaveLength(2);
  });

  it('in WAL mode with a live connection (OpenCode never checkpoints), neither the db nor its -wal holds the text', async () => {
    const { dir, ctx } = stage();
    const live = new Database(join(dir, 'opencode.db'));
    live.pragma('journal_mode = WAL');
    live.prepare('SELECT count(*) FROM session').get();
    try {
      await adapter.purgeArtifacts(ID, ctx);
      expect(readdirSync(dir)).toContain('opencode.db-wal');
      expect(hits(dir, needles)).toEqual([]);
    } finally {
      live.close();
    }
  });
});
