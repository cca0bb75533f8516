// `--agents MODULE` on the built bin: `mam doctor`, `discover`, `purge` (named and auto), `status`, `reset`, `orc` and `reconcile` use the agents a module
// exports (here examples/custom-agent/notes-agent.mjs); a module that cannot be loaded or exports none is exit 2 naming
// the flag.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAM_BIN } from '../helpers/mam-bin.js';

const ROOT = join(import.meta.dirname, '../..');
const NOTES = join(ROOT, 'examples/custom-agent/notes-agent.mjs');
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function stage(): { root: string; home: string; ws: string; note: (id: string, at: number) => string } {
  const root = mkdtempSync(join(tmpdir(), 'mam-cli-agents-'));
  roots.push(root);
  const home = join(root, 'home');
  const ws = join(root, 'ws');
  mkdirSync(join(home, '.notes', 'sessions'), { recursive: true });
  mkdirSync(ws);
  const note = (id: string, at: number): string => {
    const file = join(home, '.notes', 'sessions', `${id}.json`);
    writeFileSync(file, JSON.stringify({ id, cwd: ws, updatedAt: at }));
    return file;
  };
  return { root, home, ws, note };
}

const mam = (args: string[], cwd = ROOT): { status: number | null; stdout: string; stderr: string } =>
  spawnSync(process.execPath, [MAM_BIN, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });

const A = '6f1c1c2e-0d5e-4b7a-9d43-1f8a2b3c4d5e';
const B = '7a2d2d3f-1e6f-4c8b-8e54-2a9b3c4d5e6f';

describe('mam --agents', () => {
  it('doctor reports the module\'s store; discover lists its conversations; purge removes them (named, then auto)', () => {
    const s = stage();
    const fileA = s.note(A, Date.parse('2026-01-01T10:00:00Z'));
    const fileB = s.note(B, Date.parse('2026-01-01T11:00:00Z'));
    const doctor = mam(['doctor', '--home', s.home, '--agents', NOTES, '--json']);
    const reports = (JSON.parse(doctor.stdout) as { reports: Array<{ agent: string; counts: Record<string, number> }> }).reports;
    expect(reports.at(-1)).toMatchObject({ agent: 'notes', counts: { sessions: 2 } });
    const found = mam(['discover', 'notes', '--workspace', s.ws, '--home', s.home, '--agents', NOTES]);
    expect(found.stdout).toBe(`${B}\n${A}\n`);
    expect(found.status).toBe(0);
    const named = mam(['purge', 'notes', A, '--home', s.home, '--agents', NOTES, '--json']);
    expect(JSON.parse(named.stdout)).toMatchObject({ kind: 'purged', agent: 'notes' });
    expect(named.status).toBe(0);
    expect(existsSync(fileA)).toBe(false);
    // Relative to the current directory, as a user types it.
    const auto = mam(['purge', 'auto', B, '--home', s.home, '--agents', 'examples/custom-agent/notes-agent.mjs', '--json']);
    expect(JSON.parse(auto.stdout)).toMatchObject({ kind: 'purged', agent: 'notes' });
    expect(existsSync(fileB)).toBe(false);
  });

  it('status and reset read a registry whose rows name the module\'s agent; without --agents such a registry is refused', () => {
    const s = stage();
    s.note(A, Date.parse('2026-01-01T10:00:00Z'));
    mkdirSync(join(s.ws, '.mam'));
    writeFileSync(join(s.ws, '.mam', 'agent-sessions.yaml'), [
      'herdr_sessions:',
      '- name: notes-01', '  status: running', '  role: reviewer', '  agent: notes', `  notes_session_id_own: ${A}`, '  pane:', `    cwd: ${s.ws}`,
      'orchestrator_uuids: []', '',
    ].join('\n'));
    const status = mam(['status', '--workspace', s.ws, '--home', s.home, '--agents', NOTES, '--json']);
    expect(status.status, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ sessionsDetail: [{ name: 'notes-01', agent: 'notes', ownId: A, resumeState: 'yes' }] });
    const dry = mam(['reset', '--workspace', s.ws, '--dry-run', '--agents', NOTES]);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('target: notes-01 agent=notes role=reviewer');
    expect(dry.stdout).toContain(`old_id=${A}`);
    const plain = mam(['status', '--workspace', s.ws, '--home', s.home]);
    expect(plain.status).toBe(1);
    expect(plain.stderr).toContain('unknown agent "notes"');
  });

  it('orc removes a conversation of the module\'s agent with --purge-conversation; reconcile reads a registry naming it', () => {
    const s = stage();
    const file = s.note(A, Date.parse('2026-01-01T10:00:00Z'));
    const at = ['--workspace', s.ws, '--home', s.home, '--agents', NOTES, '--json'];
    expect(JSON.parse(mam(['orc', '--uuid', A, ...at]).stdout)).toEqual({ kind: 'registered', id: A });
    const removed = mam(['orc', '--remove', A, '--purge-conversation', '--yes', ...at]);
    expect(removed.status, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({ kind: 'removed', id: A, purge: { kind: 'purged', agent: 'notes' } });
    expect(existsSync(file)).toBe(false);
    // mam orc made the registry's dir.
    mkdirSync(join(s.ws, '.mam'), { recursive: true });
    writeFileSync(join(s.ws, '.mam', 'agent-sessions.yaml'), [
      'herdr_sessions:',
      '- name: notes-01', '  status: running', '  role: reviewer', '  agent: notes', `  notes_session_id_own: ${B}`, '  pane:', `    cwd: ${s.ws}`,
      'orchestrator_uuids: []', '',
    ].join('\n'));
    const rec = mam(['reconcile', ...at]);
    expect(rec.status, rec.stderr).toBe(0);
    expect(JSON.parse(rec.stdout)).toMatchObject({ kind: 'reconcile', entries: [] });
    const plain = mam(['reconcile', '--workspace', s.ws, '--home', s.home]);
    expect(plain.status).toBe(1);
    expect(plain.stderr).toContain('unknown agent "notes"');
  });

  it('without --agents the name is unknown (exit 2)', () => {
    const s = stage();
    const r = mam(['purge', 'notes', A, '--home', s.home]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('<agent|auto>');
  });

  it('a module that cannot be loaded, or exports no definition, is a usage error naming --agents', () => {
    const s = stage();
    const none = join(s.root, 'none.mjs');
    writeFileSync(none, 'export const x = 1;\n');
    for (const module of [join(s.root, 'missing.mjs'), none]) {
      const r = mam(['doctor', '--home', s.home, '--agents', module, '--json']);
      expect(r.status).toBe(2);
      expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'USAGE', data: { argument: '--agents' } } });
    }
    const text = mam(['discover', 'notes', '--workspace', s.ws, '--home', s.home, '--agents', none]);
    expect(text.status).toBe(2);
    expect(text.stderr).toMatch(/^mam discover: --agents: .*exports no agent definition/);
  });
});
