// Fake agents end with the process that built their sandbox, however it ends, even when nobody disposes the sandbox;
// `await using` stops them and removes the sandbox.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { nodePorts } from '../../src/node/node-ports.js';
import { buildSandbox } from '../../src/testing/sandbox/build-sandbox.js';
import { alive, until } from '../helpers/kit-temp.js';
import { tsChildArgs } from '../helpers/ts-child.js';

const CHILD = fileURLToPath(new URL('../helpers/kit-lifeline-child.ts', import.meta.url));
const temps: string[] = [];
afterAll(async () => {
  for (const d of temps) await rm(d, { recursive: true, force: true });
});
const ports = nodePorts();

describe('the sandbox lifeline', () => {
  it('a fake agent exits when the process that built its sandbox is SIGKILLed without disposing it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mam-kit-lifeline-'));
    temps.push(dir);
    const child = spawn(process.execPath, [...tsChildArgs(CHILD), join(dir, 'sb')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => void (err += d));
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes('\n')) resolve(out.split('\n')[0] as string);
      });
      child.on('exit', (code) => reject(new Error(`the child exited (${String(code)}) first: ${err}`)));
    });
    const { pid } = JSON.parse(line) as { pid: number };
    expect(await alive(ports, pid)).toBe(true);
    child.kill('SIGKILL');
    await until(async () => !(await alive(ports, pid)), 10_000, `fake agent ${pid} to exit with its sandbox's process`);
  });

  it('await using stops every fake agent and removes the sandbox directory it made; a caller\'s directory keeps what is not the sandbox\'s', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'mam-kit-dispose-'));
    temps.push(parent);
    const made = join(parent, 'made');
    const own = join(parent, 'own');
    mkdirSync(own);
    writeFileSync(join(own, 'keep.txt'), 'mine');
    let pid = 0;
    {
      await using sb = await buildSandbox(made, { sessions: [{ name: 'coder-codex-01', agent: 'codex', role: 'coder' }] });
      pid = sb.sessions[0]?.pid ?? 0;
      expect(await alive(ports, pid)).toBe(true);
      await using other = await buildSandbox(own);
      expect(await other.seed('claude')).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(await alive(ports, pid)).toBe(false);
    expect(existsSync(made)).toBe(false);
    expect(existsSync(join(own, 'keep.txt'))).toBe(true);
    expect(existsSync(join(own, 'home'))).toBe(false);
  });
});
