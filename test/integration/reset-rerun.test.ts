import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordedId } from '../../src/registry/row-agent.js';
import { resetSpecPath } from '../../src/reset/index.js';
import { startSleeper, stopAll } from '../helpers/proc-children.js';
import { resetSandbox, spyCalls } from '../helpers/reset-sandbox.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// The herdr calls after `start` that close a pane or start an agent, `--session X` dropped.
function lifecycleCalls(calls: string[][]): string[] {
  return calls
    .map((a) => (a[0] === '--session' ? a.slice(2) : a))
    .filter((a) => ['pane close', 'agent start'].includes(a.slice(0, 2).join(' ')))
    .map((a) => a.slice(0, 3).join(' '));
}

// The run under test reaches the fake herdr through its executable (the transport of a real run); the reruns that only
// finish what it left reach the same implementation answered in this process (test/helpers/in-process-herdr.ts), without
// a node start per herdr call.
describe('reset reruns resume from the spec and repeat nothing done', () => {
  let k: Awaited<ReturnType<typeof resetSandbox>> | undefined;
  afterEach(async () => {
    await stopAll();
    await k?.dispose();
    k = undefined;
  });

  it('after a failed create (B preflight fails): exit 1 and the spec kept; the rerun only creates B', async () => {
    k = await resetSandbox([
      { name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer' },
      { name: 'reviewer-grok-01', agent: 'grok', role: 'reviewer' },
    ]);
    const oldA = k.sb.sessions[0]?.id;
    const out1 = await k.planner({ MAM_FAKE_GROK_PREFLIGHT_FAIL: '1' }).run({ yes: true, callerEnv: {} });
    expect(out1.exitCode, out1.table).toBe(1);
    expect(out1.table).toContain('failed at create (rc 1)');
    expect(existsSync(resetSpecPath(k.sb.workspace))).toBe(true);
    const rows1 = (await k.sb.registry.snapshot()).herdr_sessions;
    expect(rows1.map((r) => r.name)).toEqual(['reviewer-claude-01']);
    expect(recordedId(rows1[0] ?? ({} as never))).not.toBe(oldA);
    const start = spyCalls(k.sb).length;
    const trace: string[] = [];
    const out2 = await k.planner({}, 'in-process').run({ yes: true, callerEnv: {}, onTrace: (l) => trace.push(l) });
    expect(out2.exitCode, out2.table).toBe(0);
    expect(lifecycleCalls(spyCalls(k.sb).slice(start))).toEqual(['agent start reviewer-grok-01']);
    expect(trace.some((l) => l.startsWith('reset [reviewer-claude-01]:'))).toBe(false);
    expect(existsSync(resetSpecPath(k.sb.workspace))).toBe(false);
    expect((await k.sb.registry.snapshot()).herdr_sessions.map((r) => r.name).sort()).toEqual(['reviewer-claude-01', 'reviewer-grok-01']);
  }, 90_000);

  it('after a refused purge (a live holder): exit 4, row stopped with its id, holder alive; the rerun finishes A only', async () => {
    k = await resetSandbox([
      { name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer' },
      { name: 'reviewer-claude-02', agent: 'claude', role: 'reviewer' },
    ]);
    const [a, b] = k.sb.sessions;
    if (a === undefined || b === undefined) throw new Error('no sessions');
    const holder = await startSleeper({ marker: a.id });
    const trace: string[] = [];
    const out1 = await k.planner().run({ yes: true, callerEnv: {}, onTrace: (l) => trace.push(l) });
    expect(out1.exitCode, `${out1.table}\n${trace.join('\n')}`).toBe(4);
    expect(out1.table).toContain('skipped: purge refused');
    expect(trace.some((l) => l.includes(`purge refused: in use by pid ${holder.pid} (`)), trace.join('\n')).toBe(true);
    for (const l of trace) expect(l).not.toContain(a.id);
    expect(alive(holder.pid)).toBe(true);
    const rowA = (await k.sb.registry.snapshot()).herdr_sessions.find((r) => r.name === a.name);
    expect(rowA?.status).toBe('stopped');
    expect(rowA === undefined ? null : recordedId(rowA)).toBe(a.id);
    const projects = join(k.sb.home, '.claude', 'projects');
    const files = (): string[] => readdirSync(projects, { recursive: true }).map(String);
    expect(files().some((f) => f.includes(a.id))).toBe(true);
    expect(files().some((f) => f.includes(b.id))).toBe(false);
    expect(existsSync(resetSpecPath(k.sb.workspace))).toBe(true);
    await stopAll();
    const start = spyCalls(k.sb).length;
    const trace2: string[] = [];
    const out2 = await k.planner({}, 'in-process').run({ yes: true, callerEnv: {}, onTrace: (l) => trace2.push(l) });
    expect(out2.exitCode, `${out2.table}\n${trace2.join('\n')}`).toBe(0);
    expect(trace2.some((l) => l.startsWith(`reset [${b.name}]:`))).toBe(false);
    expect(lifecycleCalls(spyCalls(k.sb).slice(start)).filter((c) => c.startsWith('agent start'))).toEqual([`agent start ${a.name}`]);
    expect(files().some((f) => f.includes(a.id))).toBe(false);
    expect(existsSync(resetSpecPath(k.sb.workspace))).toBe(false);
  }, 90_000);
});
