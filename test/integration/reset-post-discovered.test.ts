// §5.2-8b: a post-discovered (agy) row that records no id. (i) its live id is captured onto the row and into the spec as
// old_id; a holder of that id refuses the purge (exit 4); once the holder is gone the rerun purges and recreates, and a
// rerun while the new id is unrecorded exits 5 with no stop or create; (ii) an uncapturable id skips with the row stopped.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ownKey } from '../../src/ids/agent-names.js';
import { recordedId } from '../../src/registry/row-agent.js';
import { resetSpecPath } from '../../src/reset/index.js';
import { startSleeper, stopAll } from '../helpers/proc-children.js';
import { resetSandbox, spyCalls } from '../helpers/reset-sandbox.js';

const NAME = 'reviewer-agy-01';
const KEY = ownKey('agy');

// The herdr calls that close a pane or start an agent, `--session X` dropped.
function lifecycleCalls(calls: string[][]): string[] {
  return calls
    .map((a) => (a[0] === '--session' ? a.slice(2) : a))
    .filter((a) => ['pane close', 'agent start'].includes(a.slice(0, 2).join(' ')))
    .map((a) => a.slice(0, 2).join(' '));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// The run under test reaches the fake herdr through its executable (the transport of a real run); the reruns that only
// finish what it left reach the same implementation answered in this process (test/helpers/in-process-herdr.ts), without
// a node start per herdr call.
describe('reset of a post-discovered row with no recorded id (§5.2-8b)', () => {
  let k: Awaited<ReturnType<typeof resetSandbox>> | undefined;
  afterEach(async () => {
    await stopAll();
    await k?.dispose();
    k = undefined;
  });

  async function row(): Promise<Record<string, unknown> | undefined> {
    return (await k?.sb.registry.snapshot())?.herdr_sessions.find((r) => r.name === NAME) as Record<string, unknown> | undefined;
  }
  async function setOwn(id: string | null): Promise<void> {
    await k?.sb.registry.update((d) => {
      const r = d.herdr_sessions.find((x) => x.name === NAME) as Record<string, unknown> | undefined;
      if (r === undefined) throw new Error('no row');
      if (id === null) delete r[KEY];
      else r[KEY] = id;
    });
  }
  function agyFiles(): string[] {
    const root = join(k?.sb.home ?? '/nonexistent', '.gemini', 'antigravity-cli');
    return existsSync(root) ? readdirSync(root, { recursive: true }).map(String) : [];
  }
  function specOldId(): unknown {
    const spec = JSON.parse(readFileSync(resetSpecPath(k?.sb.workspace ?? ''), 'utf8')) as { agents: { old_id: unknown }[] };
    return spec.agents[0]?.old_id;
  }

  it('8b(i): captures the live id into the spec, refuses the purge while held (4), then purges and recreates (0: onboarding records the id; 5 on reruns while unrecorded, 0 once recorded)', async () => {
    k = await resetSandbox([{ name: NAME, agent: 'agy', role: 'reviewer' }]);
    const ua = k.sb.sessions[0]?.id ?? '';
    expect(ua).not.toBe('');
    await setOwn(null);
    expect(recordedId((await row()) as never)).toBeNull();
    expect(agyFiles().some((f) => f.includes(ua))).toBe(true);
    const holder = await startSleeper({ marker: ua });
    const tr1: string[] = [];
    const out1 = await k.planner().run({ yes: true, callerEnv: {}, onTrace: (l) => tr1.push(l) });
    expect(out1.exitCode, `${out1.table}\n${tr1.join('\n')}`).toBe(4);
    expect(out1.table).toContain('skipped: purge refused');
    expect(tr1.some((l) => l.includes('captured its live conversation id onto the row')), tr1.join('\n')).toBe(true);
    expect(tr1.some((l) => l.includes(`purge refused: in use by pid ${holder.pid} (`)), tr1.join('\n')).toBe(true);
    for (const l of tr1) expect(l).not.toContain(ua);
    expect(alive(holder.pid)).toBe(true);
    const r1 = await row();
    expect(r1?.['status']).toBe('stopped');
    expect(r1?.[KEY]).toBe(ua);
    expect(specOldId()).toBe(ua);
    expect(agyFiles().some((f) => f.includes(ua))).toBe(true);

    await stopAll();
    const specText = readFileSync(resetSpecPath(k.sb.workspace), 'utf8');
    const start2 = spyCalls(k.sb).length;
    const tr2: string[] = [];
    const out2 = await k.planner({}, 'in-process').run({ yes: true, callerEnv: {}, onTrace: (l) => tr2.push(l) });
    // The lifecycle's create onboards (captures and pins the new id, spec "Session lifecycle"): the run ends done.
    expect(out2.exitCode, `${out2.table}\n${tr2.join('\n')}`).toBe(0);
    expect(lifecycleCalls(spyCalls(k.sb).slice(start2))).toEqual(['agent start']);
    expect(agyFiles().some((f) => f.includes(ua))).toBe(false);
    const ub = recordedId((await row()) as never);
    expect(ub).not.toBeNull();
    expect(ub).not.toBe(ua);
    expect(agyFiles().some((f) => f.includes(ub ?? '?'))).toBe(true);
    expect(existsSync(resetSpecPath(k.sb.workspace))).toBe(false);

    // Exit 5 (§5.2-9): the state right after a create whose onboarding has not recorded the id yet (as a crash between
    // registering the row and pinning its id leaves it) — the spec still there, the new instance with no id.
    writeFileSync(resetSpecPath(k.sb.workspace), specText);
    await setOwn(null);
    const start3 = spyCalls(k.sb).length;
    const tr3: string[] = [];
    const out3 = await k.planner({}, 'in-process').run({ yes: true, callerEnv: {}, onTrace: (l) => tr3.push(l) });
    expect(out3.exitCode, `${out3.table}\n${tr3.join('\n')}`).toBe(5);
    expect(out3.table).toContain('created; id not recorded yet');
    expect(lifecycleCalls(spyCalls(k.sb).slice(start3))).toEqual([]);
    expect(tr3).toEqual([]);
    expect(existsSync(resetSpecPath(k.sb.workspace))).toBe(true);
    const out3b = await k.planner({}, 'in-process').run({ yes: true, callerEnv: {} });
    expect(out3b.exitCode).toBe(5);
    expect(lifecycleCalls(spyCalls(k.sb).slice(start3))).toEqual([]);
    await setOwn(ub);
    const out4 = await k.planner({}, 'in-process').run({ yes: true, callerEnv: {} });
    expect(out4.exitCode, out4.table).toBe(0);
    expect(out4.table.split('\n').find((l) => l.startsWith(NAME))?.split(/\s+/)).toEqual([NAME, 'agy', ua, ub, 'yes', 'yes', 'done']);
    expect(lifecycleCalls(spyCalls(k.sb).slice(start3))).toEqual([]);
    expect(existsSync(resetSpecPath(k.sb.workspace))).toBe(false);
  }, 90_000);

  it('8b(ii): no id recorded and none capturable → skipped, the row stays stopped, nothing purged', async () => {
    k = await resetSandbox([{ name: NAME, agent: 'agy', role: 'reviewer' }]);
    const ua = k.sb.sessions[0]?.id ?? '';
    await setOwn(null);
    // No conversation on disk: herdr's report does not verify and discovery finds nothing.
    const root = join(k.sb.home, '.gemini', 'antigravity-cli');
    for (const d of ['conversations', 'brain', 'cache']) rmSync(join(root, d), { recursive: true, force: true });
    const tr: string[] = [];
    const out = await k.planner().run({ yes: true, callerEnv: {}, onTrace: (l) => tr.push(l) });
    expect(out.exitCode, `${out.table}\n${tr.join('\n')}`).toBe(4);
    expect(out.table).toContain('skipped: no conversation id recorded');
    expect(tr.some((l) => l.includes('stopping with purge'))).toBe(false);
    expect(tr.some((l) => l.includes('captured its live'))).toBe(false);
    const r = await row();
    expect(r?.['status']).toBe('stopped');
    expect(recordedId(r as never)).toBeNull();
    expect(specOldId()).toBeNull();
    expect(lifecycleCalls(spyCalls(k.sb)).filter((c) => c === 'agent start').length).toBe(1);
    expect(ua).not.toBe('');
  }, 90_000);
});
