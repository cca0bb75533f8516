// PurgeService validates its arguments at the boundary: plain-JS callers get one typed InvalidArgumentError
// (code INVALID_ARGUMENT, data { param, problem }) instead of a raw Node TypeError or a purge resolved against cwd.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UnknownAgentError } from '../../../src/errors.js';
import { InvalidArgumentError } from '../../../src/invalid-argument-error.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { PurgeService } from '../../../src/purge/purge-service.js';
import { FakeClock } from '../../../src/testing/fs/fake-clock.js';
import { FakeHerdr } from '../../../src/testing/herdr/fake-herdr.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';

const home = mkdtempSync(join(tmpdir(), 'mam-purge-args-'));
const file = join(home, 'a-file');
writeFileSync(file, 'x');
afterAll(() => rmSync(home, { recursive: true, force: true }));

const svc = new PurgeService({ ports: { fs: new NodeFileSystem(), proc: new FakeProcessTable(), herdr: new FakeHerdr(), clock: new FakeClock() } });
const ID = '6f1c8a52-1d4e-4b8a-9d3c-2a7e5b9c0d11';
// Plain JS: anything at all can arrive.
const loose = svc as unknown as { purge: (...a: unknown[]) => Promise<unknown>; plan: (...a: unknown[]) => Promise<unknown>; execute: (p: unknown) => Promise<unknown> };

async function invalid(p: Promise<unknown>, param: string, problem: RegExp): Promise<void> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidArgumentError);
  expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', data: { param, problem: expect.stringMatching(problem) } });
}

describe('PurgeService argument validation', () => {
  it.each(['purge', 'plan'] as const)('%s: undefined / wrong types / empty strings name the parameter', async (m) => {
    await invalid(loose[m](undefined, ID, { home }), 'agent', /must be a string/);
    await invalid(loose[m]('claude', undefined, { home }), 'id', /must be a string/);
    await invalid(loose[m]('claude', '', { home }), 'id', /empty/);
    await invalid(loose[m]('claude', ID, undefined), 'opts', /object/);
    await invalid(loose[m]('claude', ID, { home: 42 }), 'opts.home', /string/);
    await invalid(loose[m]('claude', ID, { home: '' }), 'opts.home', /empty/);
    await invalid(loose[m]('claude', ID, { home, env: 'HOME=/x' }), 'opts.env', /object/);
  });

  it('a relative home (resolved against cwd before) or workspace is refused', async () => {
    await invalid(svc.purge('auto', ID, { home: 'fixtures/home' }), 'opts.home', /absolute/);
    await invalid(svc.plan('auto', ID, { home, workspace: './ws' }), 'opts.workspace', /absolute/);
  });

  it('a home that does not exist, or is a file, is refused', async () => {
    await invalid(svc.purge('auto', ID, { home: join(home, 'typo') }), 'opts.home', /does not exist/);
    await invalid(svc.purge('auto', ID, { home: file }), 'opts.home', /not a directory/);
  });

  it('an agent name that is a string but no agent still throws UnknownAgentError', async () => {
    await expect(loose.purge('CLAUDE', ID, { home })).rejects.toBeInstanceOf(UnknownAgentError);
  });

  it('execute takes only a plan', async () => {
    await invalid(loose.execute(undefined), 'plan', /plan/);
    await invalid(loose.execute({ agent: 'claude', id: ID }), 'plan', /lists/);
    const plan = await svc.plan('claude', ID, { home });
    await invalid(svc.execute({ ...plan, agent: 'claude', options: { home: 'rel' } }), 'opts.home', /absolute/);
  });

  it('valid arguments still work (nothing of the id: unresolved)', async () => {
    expect(await svc.purge('claude', ID, { home })).toEqual({ kind: 'unresolved', agent: null });
  });
});
