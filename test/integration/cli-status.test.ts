import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { statusCommand } from '../../src/cli/commands/status.js';
import { main } from '../../src/cli/mam.js';
import { claudeProjectKey } from '../../src/agents/claude/project-key.js';
import { SessionRegistry } from '../../src/registry/index.js';
import { makeRow, makeWorkspace, UA, UORC } from '../helpers/registry-fixtures.js';
import { MAM_BIN } from '../helpers/mam-bin.js';


function mam(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const res = spawnSync(process.execPath, [MAM_BIN, ...args], { encoding: 'utf8' });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

function collect(): { io: { stdout: (s: string) => void; stderr: (s: string) => void }; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return { io: { stdout: (s) => void (out += s), stderr: (s) => void (err += s) }, out: () => out, err: () => err };
}

describe('mam status', () => {
  let ws: string;
  let yaml: string;
  let dispose: () => Promise<void>;
  let home: string;
  beforeEach(async () => {
    ({ ws, yaml, dispose } = await makeWorkspace('mam-cli-status-'));
    home = await mkdtemp(join(tmpdir(), 'mam-cli-status-home-'));
    await new SessionRegistry(ws).update((d) => {
      d.herdr_sessions.push(
        makeRow('reviewer-claude-01', 'claude', ws, { role: 'planner,reviewer', ownId: UA }),
        makeRow('s-creator-agy', 'agy', ws, { role: 'creator' }),
        makeRow('stopped-codex-01', 'codex', ws, { status: 'stopped', role: '' }),
      );
      d.orchestrator_uuids.push(UORC);
    });
  });
  afterEach(async () => {
    await dispose();
    await rm(home, { recursive: true, force: true });
  });

  // The claude row's pinned conversation, on disk the way Claude Code writes it.
  async function writeTranscript(): Promise<void> {
    const cwd = await realpath(ws);
    const dir = join(home, '.claude', 'projects', claudeProjectKey(cwd));
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `${UA}.jsonl`), `${JSON.stringify({ type: 'user', sessionId: UA, cwd, timestamp: '2026-11-30T00:00:00.000Z', message: { role: 'user', content: 'hi' } })}\n`);
  }

  it('--json lists every row with its resume state (verified on disk), and the orchestrators (a real process)', async () => {
    await writeTranscript();
    const res = mam('status', '--workspace', ws, '--home', home, '--json');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trimEnd().split('\n')).toHaveLength(1);
    const out = JSON.parse(res.stdout) as { kind: string; workspace: string; sessionsDetail: unknown[]; orchestratorUuids: string[] };
    expect(out.kind).toBe('status');
    expect(out.workspace).toBe(ws);
    expect(out.orchestratorUuids).toEqual([UORC]);
    expect(out.sessionsDetail).toEqual([
      { name: 'reviewer-claude-01', agent: 'claude', status: 'running', role: 'planner,reviewer', ownId: UA, resumeState: 'yes' },
      { name: 's-creator-agy', agent: 'agy', status: 'running', role: 'creator', ownId: null, resumeState: 'no' },
      { name: 'stopped-codex-01', agent: 'codex', status: 'stopped', role: '', ownId: null, resumeState: 'no' },
    ]);
  });

  it('prints a table whose lines start with the row name and carry the resume state as a column', () => {
    const res = mam('status', '--workspace', ws, '--home', home);
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+AGENT\s+STATUS\s+RESUME\s+OWN_ID\s+ROLE$/);
    const line = (name: string): string => lines.find((l) => l.startsWith(name)) ?? '';
    expect(line('reviewer-claude-01')).toContain(' no '); // pinned, but its conversation is not on disk
    expect(line('reviewer-claude-01')).toContain(UA);
    expect(line('s-creator-agy')).toContain(' no ');
    expect(line('stopped-codex-01')).toMatch(/ stopped +no +- +-$/);
    expect(res.stdout).toContain(`orchestrator ${UORC} (not a row)`);
  });

  it('resume state comes from the injected probe (the adapters, once wired)', async () => {
    const { io, out } = collect();
    const code = await statusCommand(['--workspace', ws, '--json'], io, { probe: async (row) => (row.name === 's-creator-agy' ? 'yes' : 'no') });
    expect(code).toBe(0);
    const states = (JSON.parse(out()) as { sessionsDetail: Array<{ name: string; resumeState: string }> }).sessionsDetail.map((d) => [d.name, d.resumeState]);
    expect(states).toEqual([['reviewer-claude-01', 'no'], ['s-creator-agy', 'yes'], ['stopped-codex-01', 'no']]);
  });

  it('an unreadable registry exits 1 with the registry\'s message (JSON under --json); the file is left alone', async () => {
    await writeFile(yaml, 'herdr_sessions: {broken\n');
    const res = mam('status', '--workspace', ws);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('check it, then fix or remove it by hand');
    expect(res.stdout).toBe('');
    const json = mam('status', '--workspace', ws, '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'REGISTRY_CORRUPT', message: expect.stringContaining('check it, then fix or remove it by hand') } });
    expect(await readFile(yaml, 'utf8')).toBe('herdr_sessions: {broken\n');
  });

  it('a workspace without a registry has no sessions; one that does not exist is a usage error (exit 2)', async () => {
    const { io, out } = collect();
    await mkdir(join(ws, 'empty'));
    expect(await statusCommand(['--workspace', join(ws, 'empty')], io)).toBe(0);
    expect(out()).toContain('no sessions registered');
    const missing = collect();
    expect(await statusCommand(['--workspace', `${ws}/nowhere`], missing.io)).toBe(2);
    expect(missing.err()).toContain(`--workspace must be an existing directory: "${ws}/nowhere"`);
    expect(missing.out()).toBe('');
  });

  it('usage errors exit 2: an unknown option, an unknown command, no command', async () => {
    const bad = collect();
    expect(await statusCommand(['--frobnicate'], bad.io)).toBe(2);
    expect(bad.err()).toContain('usage: mam status');
    const unknown = collect();
    expect(await main(['nope'], unknown.io)).toBe(2);
    expect(unknown.err()).toContain('unknown command "nope"');
    expect(unknown.err()).toContain('status');
    const none = collect();
    expect(await main([], none.io)).toBe(2);
    // Issue 12 changed the contract: misuse prints the usage on stderr (stdout stays empty), help alone goes to stdout.
    expect(none.out()).toBe('');
    expect(none.err()).toMatch(/mam status --workspace WS/);
  });
});
