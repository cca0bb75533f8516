import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPortError, PortError } from '../../src/errors.js';
import { NodeProcessPort } from '../../src/node/node-process.js';

const NODE = process.execPath;
const PRINT_ENV = 'process.stdout.write(JSON.stringify(process.env))';

describe('NodeProcessPort.run', () => {
  let dir: string;
  const port = new NodeProcessPort({ env: { PATH: process.env['PATH'], MAM_BASE: 'base' } });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mam-run-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('returns a result for exit 0 with the output as written', async () => {
    const r = await port.run(NODE, ['-e', 'process.stdout.write("out\\n"); process.stderr.write("err\\n")']);
    expect(r).toMatchObject({ exitCode: 0, signal: null, stdout: 'out\n', stderr: 'err\n', timedOut: false, failed: false });
    expect(r.command).toBe(`${NODE} -e process.stdout.write("out\\n"); process.stderr.write("err\\n")`);
    expect(r.durationMs).toBeGreaterThan(0);
  });

  it('returns a failed result (not a rejection) for a non-zero exit', async () => {
    const r = await port.run(NODE, ['-e', 'process.exit(4)']);
    expect(r).toMatchObject({ exitCode: 4, failed: true, timedOut: false });
  });

  it('uses opts.env as the complete environment, dropping undefined values', async () => {
    const r = await port.run(NODE, ['-e', PRINT_ENV], { env: { ONLY: '1', GONE: undefined } });
    expect(JSON.parse(r.stdout)).toEqual({ ONLY: '1' });
  });

  it("defaults to the port's env, not process.env", async () => {
    const r = await port.run(NODE, ['-e', PRINT_ENV]);
    const env = JSON.parse(r.stdout) as Record<string, string>;
    expect(env['MAM_BASE']).toBe('base');
    expect(Object.keys(env).sort()).toEqual(['MAM_BASE', 'PATH']);
  });

  it('feeds input on stdin and runs in cwd', async () => {
    const r = await port.run(NODE, ['-e', 'process.stdin.pipe(process.stdout); process.stdin.on("end", () => process.stderr.write(process.cwd()))'], {
      input: 'hello',
      cwd: dir,
    });
    expect(r.stdout).toBe('hello');
    expect(r.stderr).toContain('mam-run-');
  });

  it('reports a timeout as timedOut with no exit code', async () => {
    const r = await port.run(NODE, ['-e', 'setTimeout(() => {}, 60000)'], { timeoutMs: 200 });
    expect(r).toMatchObject({ timedOut: true, exitCode: null, failed: true });
  });

  it('reports death by a signal', async () => {
    const r = await port.run(NODE, ['-e', 'process.kill(process.pid, "SIGKILL")']);
    expect(r).toMatchObject({ exitCode: null, signal: 'SIGKILL', failed: true });
  });

  it('rejects with CommandNotFound (op proc.run, command attached) when the file does not exist', async () => {
    const err = await port.run('mam-no-such-command', ['session', 'delete']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PortError);
    expect(err).toMatchObject({ code: 'CommandNotFound', op: 'proc.run', command: 'mam-no-such-command session delete' });
  });

  it('finds the command on the PATH of the given env', async () => {
    const bin = join(dir, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'mam-hello'), '#!/bin/sh\necho hello\n');
    await chmod(join(bin, 'mam-hello'), 0o755);
    expect((await port.run('mam-hello', [], { env: { PATH: bin } })).stdout).toBe('hello\n');
    const err = await port.run('mam-hello', [], { env: { PATH: '/nonexistent' } }).catch((e: unknown) => e);
    expect(isPortError(err, 'CommandNotFound')).toBe(true);
  });

  it('rejects with CommandFailed when the file cannot be executed, and NotFound for a missing cwd', async () => {
    const plain = join(dir, 'not-executable');
    await writeFile(plain, 'data');
    const err = await port.run(plain, []).catch((e: unknown) => e);
    expect(isPortError(err, 'CommandFailed')).toBe(true);
    const noCwd = await port.run(NODE, ['-e', ''], { cwd: join(dir, 'missing') }).catch((e: unknown) => e);
    expect(isPortError(noCwd, 'NotFound')).toBe(true);
  });
});
