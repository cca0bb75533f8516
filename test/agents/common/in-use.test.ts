import { SESSION_ENV_VARS } from '../../../src/ids/agent-names.js';
import { describe, expect, it } from 'vitest';
import { findInUseHolders } from '../../../src/agents/common/in-use.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';

const ID = 'a7800001-0000-4000-8000-000000000001';
const DB = '/h/.gemini/antigravity-cli/conversations/a7800001-0000-4000-8000-000000000001.db';

// self (pid 30) ← helper sh (pid 20) ← agent CLI or shell (pid 10)
function table(top: string[], opts: { selfEnv?: Record<string, string>; others?: ConstructorParameters<typeof FakeProcessTable>[0] } = {}) {
  return new FakeProcessTable(
    [
      { pid: 1, argv: ['init'] },
      { pid: 10, ppid: 1, argv: top },
      { pid: 20, ppid: 10, argv: ['sh', '-c', `mam purge agy ${ID}`] },
      ...(opts.others ?? []),
    ],
    { self: { pid: 30, ppid: 20, argv: ['node', 'mam', 'purge', 'agy', ID], ...(opts.selfEnv ? { env: opts.selfEnv } : {}) } },
  );
}

describe('findInUseHolders', () => {
  it('ignores the caller and its helper chain naming the id', async () => {
    const proc = table(['bash']);
    expect(await findInUseHolders(proc, { agent: 'agy', sessionEnvVars: SESSION_ENV_VARS, id: ID, heldPaths: [] })).toEqual([]);
  });

  it('counts the nearest agent CLI ancestor naming the id (the session the caller runs in)', async () => {
    const proc = table(['agy', '--conversation', ID]);
    const holders = await findInUseHolders(proc, { agent: 'agy', sessionEnvVars: SESSION_ENV_VARS, id: ID, heldPaths: [] });
    expect(holders.map((h) => [h.pid, h.signal])).toEqual([[10, 'command-line']]);
  });

  it('finds another process naming the upper-case spelling of a uuid', async () => {
    const proc = table(['bash'], { others: [{ pid: 99, ppid: 1, argv: ['claude', '-r', ID.toUpperCase()] }] });
    const holders = await findInUseHolders(proc, { agent: 'claude', sessionEnvVars: SESSION_ENV_VARS, id: ID, heldPaths: [] });
    expect(holders.map((h) => h.pid)).toEqual([99]);
  });

  it('finds another process naming a uuid in mixed case, and a non-uuid id only as spelled', async () => {
    const mixed = `${ID.slice(0, 9).toUpperCase()}${ID.slice(9)}`;
    const proc = table(['bash'], { others: [{ pid: 99, ppid: 1, argv: ['gemini', '--resume', mixed] }, { pid: 98, ppid: 1, argv: ['opencode', '-s', 'SES_ABC123'] }] });
    const holders = await findInUseHolders(proc, { agent: 'gemini', sessionEnvVars: SESSION_ENV_VARS, id: ID, heldPaths: [] });
    expect(holders.map((h) => h.pid)).toEqual([99]);
    const exact = await findInUseHolders(proc, { agent: 'opencode', sessionEnvVars: SESSION_ENV_VARS, id: 'ses_abc123', heldPaths: [] });
    expect(exact).toEqual([]);
  });

  it('skips a process that is gone (a zombie names nothing)', async () => {
    const proc = table(['bash'], { others: [{ pid: 99, ppid: 1, argv: ['claude', '-r', ID], state: 'zombie' }] });
    expect(await findInUseHolders(proc, { agent: 'claude', sessionEnvVars: SESSION_ENV_VARS, id: ID, heldPaths: [] })).toEqual([]);
  });

  it.each(['CLAUDE_CODE_SESSION_ID', 'ANTIGRAVITY_CONVERSATION_ID', 'HERMES_SESSION_ID', 'GROK_SESSION_ID', 'OPENCODE_SESSION_ID', 'CODEX_THREAD_ID'])(
    'refuses from the session\'s own shell: %s',
    async (name) => {
      const proc = table(['bash'], { selfEnv: { [name]: ID.toUpperCase() } });
      const holders = await findInUseHolders(proc, { agent: 'agy', sessionEnvVars: SESSION_ENV_VARS, id: ID, heldPaths: [] });
      expect(holders).toEqual([expect.objectContaining({ pid: 30, signal: 'session-env', detail: name })]);
    },
  );

  it('counts a holder of the DB with the id on no command line, in one holders call', async () => {
    const proc = table(['bash'], { others: [{ pid: 77, ppid: 1, argv: ['sleep', '60'], openFiles: [`${DB}-wal`] }] });
    const holders = await findInUseHolders(proc, { agent: 'agy', sessionEnvVars: SESSION_ENV_VARS, id: ID, heldPaths: [DB, `${DB}-wal`, `${DB}-shm`] });
    expect(holders).toEqual([expect.objectContaining({ pid: 77, signal: 'open-file', detail: `${DB}-wal` })]);
    expect(proc.holdersCalls).toBe(1);
    expect(proc.snapshotCalls).toBe(1);
  });

  it('lets the adapter discount a holder (a shared background service)', async () => {
    const proc = table(['bash'], { others: [{ pid: 77, ppid: 1, argv: ['opencode', 'serve', '--service'], openFiles: [DB] }] });
    const holders = await findInUseHolders(proc, { agent: 'agy', sessionEnvVars: SESSION_ENV_VARS, id: ID, heldPaths: [DB], ignoreHolder: (_h, p) => p?.command.includes('serve --service') === true });
    expect(holders).toEqual([]);
  });

  it('makes no lsof call when there is nothing to hold', async () => {
    const proc = table(['bash']);
    await findInUseHolders(proc, { agent: 'claude', sessionEnvVars: SESSION_ENV_VARS, id: ID, heldPaths: [] });
    expect(proc.holdersCalls).toBe(0);
  });
});
