// Gemini's own in-use evidence leaves to the common check every process whose command line names the id, by the one rule
// the common check uses (processesNamingId): a uuid in any letter case. A gemini CLI compares a `--resume` id exactly,
// but a process that names the conversation in mixed case is still reported, once, as naming it.
import { describe, expect, it } from 'vitest';
import { findInUseHolders } from '../../../src/agents/common/in-use.js';
import { gemini } from '../../../src/agents/gemini/definition.js';
import { geminiInUse } from '../../../src/agents/gemini/gemini-in-use.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import type { FakeProcess } from '../../../src/testing/process/fake-process.js';

const ID = '165710fc-8d90-4736-9043-383cdacc99f5';
const MIXED = '165710FC-8d90-4736-9043-383CDACC99F5';
const WS = '/home/me/ws';
const SELF: FakeProcess = { pid: 100, ppid: 1, argv: ['node', 'mam', 'purge'], env: {} };

async function both(procs: FakeProcess[]): Promise<{ own: Array<[number, string]>; all: Array<[number, string]> }> {
  const table = new FakeProcessTable(procs, { self: SELF });
  const own = await geminiInUse(table, await table.snapshot(), ID, [WS]);
  const all = await findInUseHolders(table, { agent: 'gemini', sessionEnvVars: gemini.sessionEnvVars, id: ID, heldPaths: [], extra: (s) => geminiInUse(table, s, ID, [WS]) });
  return { own: own.map((h) => [h.pid, h.signal]), all: all.map((h) => [h.pid, h.signal]) };
}

describe('geminiInUse and the command lines naming the id', () => {
  it.each([
    ['lower', ID],
    ['upper', ID.toUpperCase()],
    ['mixed', MIXED],
  ])('a gemini in the project naming the id in %s case is the common check\'s: one holder, command-line', async (_case, spelled) => {
    const { own, all } = await both([{ pid: 7, ppid: 1, argv: ['node', '/opt/bin/gemini', '--resume', spelled], cwd: WS }]);
    expect(own).toEqual([]);
    expect(all).toEqual([[7, 'command-line']]);
  });

  it('a gemini in the project naming another id is its own evidence', async () => {
    const { own, all } = await both([{ pid: 8, ppid: 1, argv: ['gemini', '--resume', '11e4ad92-39ee-4595-b5fd-fd544433f356'], cwd: WS }]);
    expect(own).toEqual([[8, 'open-file']]);
    expect(all).toEqual([[8, 'open-file']]);
  });
});
