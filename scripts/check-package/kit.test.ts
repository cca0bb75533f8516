// A downstream project's tests over the shipped test kit (@mam/core/testing), run by vitest from the tarball.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getAdapter, HerdrCli, processesNaming, PurgeService } from '@mam/core';
import { buildSandbox, FakeHerdr, FakeProcessTable, installFakeAgents, installFakeHerdr } from '@mam/core/testing';

const dir = mkdtempSync(join(tmpdir(), 'mam-kit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('@mam/core/testing from the built package', () => {
  it('FakeProcessTable: an in-use check sees a live holder', async () => {
    const id = '01a229e1-babe-7660-ab96-63d71c4bdf06';
    const proc = new FakeProcessTable([{ pid: 300, argv: ['codex', 'resume', id] }]);
    const holders = processesNaming(await proc.snapshot(), [id]);
    expect(holders.map((h) => h.pid)).toContain(300);
  });

  it('FakeHerdr is a HerdrPort', async () => {
    const herdr = new FakeHerdr();
    expect(await herdr.agentPresence('nobody')).not.toBe('present');
  });

  it('installFakeHerdr writes an executable the real-CLI port drives', async () => {
    const bin = await installFakeHerdr(join(dir, 'h-bin'), { statePath: join(dir, 'herdr.json') });
    const cli = new HerdrCli({ bin });
    const ws = await cli.workspaceCreate({ cwd: dir, label: 'team' });
    expect(ws.kind).toBe('ok');
  });

  it('installFakeAgents writes agent executables that run', async () => {
    const bin = join(dir, 'a-bin');
    await installFakeAgents(bin, { home: join(dir, 'a-home') });
    const r = spawnSync(join(bin, 'codex'), ['--version'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
  });

  it('buildSandbox: a session running, its conversation on disk, in use while it lives', async () => {
    const sb = await buildSandbox(join(dir, 'sb'), { sessions: [{ name: 'dev-codex', agent: 'codex', role: 'coder' }] });
    try {
      const id = sb.sessions[0]!.id;
      expect(await getAdapter('codex', { ports: sb.ports() }).hasArtifacts(id, { workspace: sb.workspace, home: sb.home, env: sb.env })).toBe(true);
      const r = await new PurgeService({ ports: sb.ports() }).purge('auto', id, { home: sb.home, env: sb.env });
      expect(r.kind).toBe('in-use');
    } finally {
      await sb.stopAll();
    }
  });
});
