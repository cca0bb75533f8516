import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LoopGuard } from '../../src/loop/loop-guard.js';
import { recordedId } from '../../src/registry/row-agent.js';
import { resetSpecPath } from '../../src/reset/index.js';
import { hookHerdr, resetSandbox, spyCalls } from '../helpers/reset-sandbox.js';
import { MAM_BIN } from '../helpers/mam-bin.js';
import { byTier } from '../helpers/tier.js';

const ROOT = join(import.meta.dirname, '../..');

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

// The signalled `mam reset` reaches the fake herdr through its executable (the transport of a real run); the reruns that only
// finish what it left reach the same implementation answered in this process (test/helpers/in-process-herdr.ts), without
// a node start per herdr call.
describe('reset under SIGTERM / SIGINT / SIGHUP (review P1/N1)', () => {
  let k: Awaited<ReturnType<typeof resetSandbox>> | undefined;
  afterEach(async () => {
    await k?.dispose();
    k = undefined;
  });

  // npm test: SIGINT (the same handler serves all three); the slow tier (test/slow/reset-signals.test.ts) every signal.
  const SIGNALS: ReadonlyArray<readonly ['SIGTERM' | 'SIGINT' | 'SIGHUP', number]> = byTier(
    [['SIGINT', 130]],
    [
      ['SIGTERM', 143],
      ['SIGINT', 130],
      ['SIGHUP', 129],
    ],
  );

  it.each(SIGNALS)('%s during the first stop: the guard is held until the step ends, then exit %i, spec kept, nothing further', async (sig, rc) => {
    k = await resetSandbox([
      { name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer' },
      { name: 'reviewer-claude-02', agent: 'claude', role: 'reviewer' },
    ]);
    const sb = k.sb;
    const entered = join(k.root, 'entered');
    const release = join(k.root, 'release');
    await hookHerdr(sb, 'pane close', `if [ ! -e '${entered}' ]; then : > '${entered}'; n=0; while [ ! -e '${release}' ] && [ $n -lt 300 ]; do sleep 0.05; n=$((n+1)); done; fi`);
    const start = spyCalls(sb).length;
    const child = spawn(process.execPath, [MAM_BIN, 'reset', '--workspace', sb.workspace, '--yes'], {
      cwd: ROOT,
      env: { ...sb.env, MAM_ONBOARD_WAIT_S: '8' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
    await until(() => existsSync(entered), 30_000);
    child.kill(sig);
    await new Promise((r) => setTimeout(r, 300));
    expect(child.exitCode).toBeNull();
    const guardPath = join(sb.workspace, '.mam', 'loop-guard-active');
    expect(existsSync(guardPath)).toBe(true);
    const probe = await new LoopGuard(sb.workspace, { ports: sb.ports() }).acquire({ holder: 'probe' });
    expect(probe.kind).toBe('refused');
    if (probe.kind === 'refused') expect(probe.message).toContain('Another multi-agent-mux-loop is already running');
    writeFileSync(release, '');
    expect(await exited, out).toBe(rc);
    expect(existsSync(guardPath)).toBe(false);
    expect(existsSync(resetSpecPath(sb.workspace))).toBe(true);
    const verbs = spyCalls(sb).slice(start).map((a) => (a[0] === '--session' ? a.slice(2) : a).slice(0, 2).join(' '));
    expect(verbs).not.toContain('agent start');
    const [a, b] = sb.sessions;
    const rows = (await sb.registry.snapshot()).herdr_sessions;
    const rowA = rows.find((r) => r.name === a?.name);
    const rowB = rows.find((r) => r.name === b?.name);
    // A was stopped by its in-flight step and not purged; B was not touched.
    expect(rowA?.status).toBe('stopped');
    expect(rowA === undefined ? null : recordedId(rowA)).toBe(a?.id);
    expect(rowB?.status).toBe('running');
    expect(rowB === undefined ? null : recordedId(rowB)).toBe(b?.id);
    // The rerun finishes.
    const done = await k.planner({}, 'in-process').run({ yes: true, callerEnv: {} });
    expect(done.exitCode, done.table).toBe(0);
    expect(existsSync(resetSpecPath(sb.workspace))).toBe(false);
  }, 120_000);
});
