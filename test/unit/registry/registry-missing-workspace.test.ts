// new SessionRegistry('/typo/ws').update(…) used to mkdir -p `/typo/ws/.mam`: a workspace that does not exist is now
// an InvalidArgumentError unless the caller opts in with { createWorkspace: true }.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/invalid-argument-error.js';
import { SessionRegistry } from '../../../src/registry/session-registry.js';

const base = mkdtempSync(join(tmpdir(), 'mam-reg-ws-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('SessionRegistry and a workspace that does not exist', () => {
  it('update of a typo workspace throws INVALID_ARGUMENT and creates nothing', async () => {
    const ws = join(base, 'typo', 'ws');
    const reg = new SessionRegistry(ws);
    await expect(reg.update(() => undefined)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', data: { param: 'workspace', problem: expect.stringMatching(/does not exist/) } });
    await expect(reg.update(() => undefined)).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(existsSync(join(base, 'typo'))).toBe(false);
    expect(await reg.snapshot()).toEqual({ herdr_sessions: [], orchestrator_uuids: [] });
  });

  it('a workspace that is a file is refused too', async () => {
    const f = join(base, 'file');
    writeFileSync(f, 'x');
    await expect(new SessionRegistry(f).update(() => undefined)).rejects.toMatchObject({ data: { param: 'workspace', problem: expect.stringMatching(/not a directory/) } });
  });

  it('{ createWorkspace: true } creates it', async () => {
    const ws = join(base, 'new', 'ws');
    await new SessionRegistry(ws, { createWorkspace: true }).update((d) => d.orchestrator_uuids.push('6f1c8a52-1d4e-4b8a-9d3c-2a7e5b9c0d11'));
    expect(existsSync(join(ws, '.mam', 'agent-sessions.yaml'))).toBe(true);
  });

  it('plain-JS callers get INVALID_ARGUMENT for a missing or empty workspace', () => {
    expect(() => new SessionRegistry(undefined as unknown as string)).toThrow(InvalidArgumentError);
    expect(() => new SessionRegistry('')).toThrow(InvalidArgumentError);
  });
});
