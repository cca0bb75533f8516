import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentEnv } from '../../../src/agents/common/agent-env.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';

const fs = new NodeFileSystem();
const home = mkdtempSync(join(tmpdir(), 'mam-home-'));
const callerEnv = { HOME: home, CLAUDE_CONFIG_DIR: '/real/.claude', CODEX_HOME: '/real/.codex' };
const proc = new FakeProcessTable([], { self: { pid: 5, argv: ['node'], env: callerEnv } });

describe('agentEnv', () => {
  it('uses the caller env for the caller home (also through a link)', async () => {
    expect(await agentEnv(fs, proc, { workspace: home, home: home })).toEqual(callerEnv);
    const link = join(mkdtempSync(join(tmpdir(), 'mam-link-')), 'home');
    symlinkSync(home, link);
    expect(await agentEnv(fs, proc, { workspace: home, home: link })).toEqual(callerEnv);
  });
  it('never lends the caller CLAUDE_CONFIG_DIR to a sandbox home', async () => {
    const sandbox = mkdtempSync(join(tmpdir(), 'mam-sandbox-'));
    expect(await agentEnv(fs, proc, { workspace: sandbox, home: sandbox })).toEqual({});
  });
  it('prefers an explicit ctx.env', async () => {
    expect(await agentEnv(fs, proc, { workspace: home, home: home, env: { CODEX_HOME: '/x' } })).toEqual({ CODEX_HOME: '/x' });
  });
});
