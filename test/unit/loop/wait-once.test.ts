import { describe, expect, it } from 'vitest';
import { HerdrCommandPort, sanitizeHerdrAgentName, type HerdrRawOutput } from '../../../src/herdr/index.js';
import { DEFAULT_WATCH_UNTIL, WatchArgumentError, observationFrom, waitOnce } from '../../../src/loop/index.js';
import type { HerdrPort } from '../../../src/ports/index.js';

const SNAPSHOT = {
  id: 'cli:agent:wait',
  result: {
    type: 'agent_info',
    agent: { agent_status: 'idle', interactive_ready: true, pane_id: 'w2X:p1', state_change_seq: 18, terminal_id: 'term_1', workspace_id: 'w2X', tab_id: 'w2X:t1', focused: false, revision: 3 },
  },
};

function port(raw: HerdrRawOutput | Error, seen: string[][] = []): HerdrPort {
  return new HerdrCommandPort(async (argv) => {
    seen.push([...argv]);
    if (raw instanceof Error) throw raw;
    return raw;
  });
}
const exited = (exitCode: number, stdout: string, stderr = ''): HerdrRawOutput => ({ kind: 'exited', exitCode, stdout, stderr });
const errorJson = (code: string) => JSON.stringify({ error: { code, message: 'x' }, id: 'cli:agent:wait' });

describe('waitOnce', () => {
  it('passes --timeout in milliseconds and always names --until', async () => {
    const seen: string[][] = [];
    await waitOnce(port(exited(0, JSON.stringify(SNAPSHOT)), seen), 'sess', { until: ['idle', 'working'], timeoutMs: 15_000, session: 'work' });
    const argv = seen[0] ?? [];
    expect(argv.slice(0, 6)).toEqual(['--session', 'work', 'agent', 'wait', 'sess', '--until']);
    expect(argv[argv.indexOf('--timeout') + 1]).toBe('15000');
    expect(argv.filter((a) => a === '--until')).toHaveLength(2);
    expect(argv).toContain('working');
  });

  it('without `until` it still passes every real status, working included', async () => {
    const seen: string[][] = [];
    await waitOnce(port(exited(0, JSON.stringify(SNAPSHOT)), seen), 'sess', { timeoutMs: 1 });
    const untils = (seen[0] ?? []).flatMap((a, i, all) => (a === '--until' ? [all[i + 1]] : []));
    expect(untils).toEqual([...DEFAULT_WATCH_UNTIL]);
    expect(untils).toContain('working');
  });

  it('sanitizes a row name for herdr, leaves a valid name alone', async () => {
    const seen: string[][] = [];
    await waitOnce(port(exited(0, JSON.stringify(SNAPSHOT)), seen), 'Claude Reviewer #2', { timeoutMs: 10 });
    await waitOnce(port(exited(0, JSON.stringify(SNAPSHOT)), seen), 'reviewer', { timeoutMs: 10 });
    expect(seen.map((argv) => argv[2])).toEqual([sanitizeHerdrAgentName('Claude Reviewer #2'), 'reviewer']);
    expect(seen[0]?.[2]).toMatch(/^claude-reviewer--2-[0-9a-f]{8}$/);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses a timeout of %s before asking herdr', async (timeoutMs) => {
    const seen: string[][] = [];
    await expect(waitOnce(port(exited(0, '{}'), seen), 's', { timeoutMs })).rejects.toBeInstanceOf(WatchArgumentError);
    expect(seen).toEqual([]);
  });

  it('refuses an empty or unknown until', async () => {
    await expect(waitOnce(port(exited(0, '{}')), 's', { timeoutMs: 5, until: [] })).rejects.toMatchObject({ code: 'WATCH_INVALID_ARGUMENT' });
    await expect(waitOnce(port(exited(0, '{}')), 's', { timeoutMs: 5, until: ['finished' as never] })).rejects.toMatchObject({ code: 'WATCH_INVALID_ARGUMENT' });
  });

  it('exit 0: the matched snapshot comes from stdout, healthy', async () => {
    const out = await waitOnce(port(exited(0, JSON.stringify(SNAPSHOT), 'a warning on stderr')), 's', { timeoutMs: 5 });
    expect(out).toMatchObject({ kind: 'matched', healthy: true, agent: { agent_status: 'idle' } });
  });

  it.each(['timeout', 'agent_not_found'] as const)('exit 1 %s: read from stderr (stdout empty), still healthy', async (code) => {
    const out = await waitOnce(port(exited(1, '', errorJson(code))), 's', { timeoutMs: 5 });
    expect(out).toMatchObject({ kind: code, errorCode: code, healthy: true });
  });

  it('an error JSON on stdout instead of stderr is not believed', async () => {
    const out = await waitOnce(port(exited(1, errorJson('timeout'), '')), 's', { timeoutMs: 5 });
    expect(out.kind).toBe('transport_error');
  });

  it('server_not_running is herdr answering that no socket is there: not healthy', async () => {
    const out = await waitOnce(port(exited(1, '', errorJson('server_not_running'))), 's', { timeoutMs: 5 });
    expect(out).toMatchObject({ kind: 'error', errorCode: 'server_not_running', healthy: false });
    expect(await waitOnce(port(exited(1, '', errorJson('agent_not_running'))), 's', { timeoutMs: 5 })).toMatchObject({ kind: 'error', healthy: true });
  });

  it('unparseable output, an empty result or an unexpected exit code is a transport error, never a throw', async () => {
    for (const raw of [exited(1, '', 'not json'), exited(0, '{}'), exited(7, '', '{}'), exited(0, 'garbage')]) {
      expect(await waitOnce(port(raw), 's', { timeoutMs: 5 })).toMatchObject({ kind: 'transport_error', healthy: false });
    }
  });

  it('a failed launch, or a port that throws, is a transport error value', async () => {
    expect(await waitOnce(port({ kind: 'spawn_failed', message: 'ENOENT herdr' }), 's', { timeoutMs: 5 })).toMatchObject({ kind: 'transport_error', healthy: false });
    expect(await waitOnce(port(new Error('herdr missing')), 's', { timeoutMs: 5 })).toMatchObject({ kind: 'transport_error', healthy: false });
    const throwing = { agentWait: () => Promise.reject(new Error('boom')) } as unknown as HerdrPort;
    expect(await waitOnce(throwing, 's', { timeoutMs: 5 })).toMatchObject({ kind: 'transport_error', message: expect.stringContaining('boom') });
  });

  it('only a matched outcome becomes an observation', async () => {
    const matched = await waitOnce(port(exited(0, JSON.stringify(SNAPSHOT))), 's', { timeoutMs: 5 });
    expect(observationFrom(matched)?.agent.agent_status).toBe('idle');
    expect(observationFrom(await waitOnce(port(exited(1, '', errorJson('timeout'))), 's', { timeoutMs: 5 }))).toBeNull();
    expect(observationFrom(await waitOnce(port({ kind: 'spawn_failed', message: 'x' }), 's', { timeoutMs: 5 }))).toBeNull();
  });
});
