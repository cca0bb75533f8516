import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { HerdrCli } from '../../src/node/herdr-cli.js';
import { writeNodeBin } from '../helpers/herdr-fixture-bins.js';
import { herdrTempDir } from '../helpers/herdr-temp.js';

describe('HerdrCli over real processes', () => {
  let dir: string;
  let remove: () => Promise<void>;

  beforeAll(async () => {
    ({ dir, remove } = await herdrTempDir('cli'));
  });
  afterAll(async () => {
    await remove();
  });

  it('a bin that does not exist is a transport error (and presence unknown), not an exception', async () => {
    const herdr = new HerdrCli({ bin: join(dir, 'no-such-herdr') });
    expect(await herdr.agentList()).toMatchObject({ kind: 'transport_error', exitCode: null, message: expect.stringContaining('ENOENT') });
    expect(await herdr.agentPresence('rev')).toBe('unknown');
  });

  it('a bin that prints garbage is a transport error for a JSON command', async () => {
    const bin = await writeNodeBin(dir, 'garbage', "process.stdout.write('hello there\\n');");
    const r = await new HerdrCli({ bin }).agentGet('rev');
    expect(r).toMatchObject({ kind: 'transport_error', exitCode: 0, message: expect.stringContaining('hello there') });
  });

  it('an unexpected exit code is a transport error with its stderr', async () => {
    const bin = await writeNodeBin(dir, 'exit7', "process.stderr.write('panicked\\n'); process.exit(7);");
    expect(await new HerdrCli({ bin }).paneSendKeys('w1:p1', ['enter'])).toEqual({
      kind: 'transport_error', message: 'herdr exited 7: panicked', exitCode: 7, stderr: 'panicked\n',
    });
  });

  it('a bin that hangs is killed at the deadline', async () => {
    const bin = await writeNodeBin(dir, 'hang', 'setInterval(() => {}, 1000);');
    const started = Date.now();
    const r = await new HerdrCli({ bin }).agentList({ deadlineMs: 300 });
    expect(r).toMatchObject({ kind: 'transport_error', exitCode: null, message: expect.stringContaining('300 ms') });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('exit 1 with a JSON error on stderr is herdr answer', async () => {
    const bin = await writeNodeBin(dir, 'err', `process.stderr.write('{"error":{"code":"agent_not_found","message":"agent target rev not found"},"id":"cli:agent:get"}\\n'); process.exit(1);`);
    expect(await new HerdrCli({ bin }).agentGet('rev')).toEqual({ kind: 'error', code: 'agent_not_found', message: 'agent target rev not found', exitCode: 1 });
  });

  it('passes every argv element through untouched and the env overrides', async () => {
    const bin = await writeNodeBin(dir, 'echo', [
      'const agent = { agent_status: "idle", focused: false, pane_id: "p", revision: 1, state_change_seq: 1, tab_id: "t", terminal_id: "x", workspace_id: "w",',
      '  argv: process.argv.slice(2), session: process.env.HERDR_SESSION ?? null };',
      'process.stdout.write(JSON.stringify({ id: "cli:agent:prompt", result: { type: "agent_prompted", agent } }) + "\\n");',
    ].join('\n'));
    const text = 'line one\nline "two" --wait $HOME';
    const r = await new HerdrCli({ bin, env: { HERDR_SESSION: 'from-env' } }).agentPrompt('rev', text, { wait: true, until: ['idle', 'done'], timeoutMs: 2000 }, { session: 's1' });
    expect(r).toMatchObject({
      kind: 'ok',
      value: { argv: ['--session', 's1', 'agent', 'prompt', 'rev', text, '--wait', '--until', 'idle', '--until', 'done', '--timeout', '2000'], session: 'from-env' },
    });
  });

  it('read text comes back byte for byte, trailing newlines included', async () => {
    const bin = await writeNodeBin(dir, 'reader', "process.stdout.write('  indented\\n\\n');");
    expect(await new HerdrCli({ bin }).agentRead('rev')).toEqual({ kind: 'ok', value: '  indented\n\n' });
  });
});
