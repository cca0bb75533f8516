// inspectStores for agy: on the derived home (a conversation whose rows live only in -wal, a subagent, a .pb store,
// the summaries index) and on real-layout ACP copies — presence, layout, known, counts and problems; nothing changed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StoreReport } from '../../src/agents/types.js';
import { inspectStores } from '../../src/index.js';
import { hashTree } from '../helpers/adapter-codex-tree.js';
import { materialiseAgyDerived } from '../helpers/adapter-agy-derived.js';
import { writeAgyAcp, writeAgyRealDb } from '../helpers/adapter-agy-real-files.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
function temp(): string {
  const r = mkdtempSync(join(tmpdir(), 'mam-inspect-agy-'));
  roots.push(r);
  return r;
}
async function report(home: string, env: Record<string, string>): Promise<StoreReport> {
  return (await inspectStores({ home, env })).find((r) => r.agent === 'agy') as StoreReport;
}
const ACP_ID = '85732767-bcd9-46ac-8e31-08d986363857';

describe('inspectStores: agy', () => {
  it('the derived home: CLI conversations, the .pb store, the subagent, the summaries index; tree unchanged', async () => {
    const s = materialiseAgyDerived(temp());
    const before = hashTree(s.root);
    const r = await report(s.home, { HOME: s.home });
    expect(r).toMatchObject({ presence: 'present', root: s.cli, known: true, problems: [], layout: 'antigravity-cli; conversation_summaries.db (user_version 3)' });
    expect(r.counts).toEqual({ 'cli conversations (.db)': 4, 'cli conversations (.pb)': 1, 'cli subagent conversations': 1, 'summary index rows': 4 });
    expect(hashTree(s.root)).toEqual(before);
  });

  it('an ACP copy is counted; a .db that is no SQLite database and a garbage summaries index are problems', async () => {
    const s = materialiseAgyDerived(temp());
    const gemini = join(s.home, '.gemini');
    writeAgyAcp(gemini, ACP_ID, s.root);
    writeAgyRealDb(gemini, 'c1c1c1c1-1111-4222-8333-0000c1c1c1c1', { workspaces: [`file://${s.root}`] });
    const bogus = join(s.cli, 'conversations', 'd1d1d1d1-1111-4222-8333-0000d1d1d1d1.db');
    writeFileSync(bogus, 'not a database');
    writeFileSync(`${bogus}-wal`, 'kept');
    writeFileSync(join(s.cli, 'conversation_summaries.db'), 'garbage');
    const before = hashTree(s.root);
    const r = await report(s.home, { HOME: s.home });
    expect(r.known).toBe(false);
    expect(r.layout).toBe('antigravity-cli + antigravity-acp');
    expect(r.counts).toMatchObject({ 'cli conversations (.db)': 5, 'acp conversations (.db)': 1 });
    expect(r.problems).toEqual([`${bogus}: not a SQLite database: not read`, `${join(s.cli, 'conversation_summaries.db')}: not a SQLite database: purges refuse`]);
    expect(hashTree(s.root)).toEqual(before);
  });

  it('an empty home has no agy store', async () => {
    const home = temp();
    expect(await report(home, { HOME: home })).toMatchObject({ presence: 'absent', known: null, counts: {} });
  });
});
