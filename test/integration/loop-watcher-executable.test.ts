import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HerdrWatcher, waitOnce } from '../../src/loop/index.js';
import { NodeClock } from '../../src/node/node-clock.js';
import { HerdrCli } from '../../src/node/herdr-cli.js';
import { installFakeHerdr, readFakeHerdrSpyLog, updateFakeHerdrState } from '../../src/testing/herdr/index.js';
import { makeJobsWorkspace } from '../helpers/jobs-workspace.js';

describe('the watcher over a real herdr process (the fake executable)', () => {
  let dir: string;
  let dispose: () => Promise<void>;
  let statePath: string;
  let spyLogPath: string;
  let cli: HerdrCli;

  beforeEach(async () => {
    ({ workspace: dir, dispose } = await makeJobsWorkspace('watch-exe'));
    statePath = join(dir, 'state.json');
    spyLogPath = join(dir, 'spy.jsonl');
    const bin = await installFakeHerdr(join(dir, 'bin'), { statePath, spyLogPath });
    cli = new HerdrCli({ bin, env: { HERDR_SESSION: undefined, HERDR_SOCKET_PATH: undefined } });
  });
  afterEach(async () => {
    await dispose();
  });

  it('runs `agent wait <name> --until … --timeout <ms>` and reads the matched snapshot from stdout', async () => {
    await updateFakeHerdrState(statePath, (e) => e.addAgent({ name: 'reviewer', kind: 'claude', status: 'idle' }));
    const out = await waitOnce(cli, 'reviewer', { timeoutMs: 15_000, until: ['idle', 'working'], session: 'default' });
    expect(out).toMatchObject({ kind: 'matched', healthy: true, agent: { name: 'reviewer', agent_status: 'idle' } });
    const [call] = await readFakeHerdrSpyLog(spyLogPath);
    expect(call?.argv).toEqual(['--session', 'default', 'agent', 'wait', 'reviewer', '--until', 'idle', '--until', 'working', '--timeout', '15000']);
  });

  it('a timeout and a missing agent come from stderr and are healthy; neither is an observation', async () => {
    await updateFakeHerdrState(statePath, (e) => e.addAgent({ name: 'reviewer', kind: 'claude', status: 'working' }));
    expect(await waitOnce(cli, 'reviewer', { timeoutMs: 150, until: ['idle'], session: 'default' })).toMatchObject({ kind: 'timeout', healthy: true });
    expect(await waitOnce(cli, 'nobody', { timeoutMs: 150, session: 'default' })).toMatchObject({ kind: 'agent_not_found', healthy: true });
  });

  it('a herdr that cannot be launched or prints garbage is a transport error, and the watcher backs off', async () => {
    const garbage = join(dir, 'garbage-herdr');
    await writeFile(garbage, '#!/bin/sh\necho "not json"\nexit 0\n');
    await chmod(garbage, 0o755);
    for (const bin of [join(dir, 'missing-herdr'), garbage]) {
      const watcher = new HerdrWatcher({ agent: 'reviewer', timeoutMs: 100, ports: { herdr: new HerdrCli({ bin }), clock: new NodeClock() } });
      const step = await watcher.next();
      expect(step.outcome, bin).toMatchObject({ kind: 'transport_error', healthy: false });
      expect(watcher.backoff.current).toBe(1000);
    }
  });
});
