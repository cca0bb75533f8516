// A FIFO (or any non-regular file) in place of the registry YAML made snapshot() and update() hang forever — update()
// while holding the lock, so every other process timed out even after the FIFO was gone (issue 13). Real FIFOs here.
import { spawnSync } from 'node:child_process';
import { mkdir, rm, unlink } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPortError } from '../../src/errors.js';
import { acquireLock } from '../../src/atomic/index.js';
import { NodeClock } from '../../src/node/node-clock.js';
import { RegistryCorruptError, RegistryFileRefusedError, SessionRegistry } from '../../src/registry/index.js';
import { makeRow, makeWorkspace } from '../helpers/registry-fixtures.js';
import { readMirror } from '../helpers/registry-mirror.js';

const mkfifo = (p: string): void => {
  expect(spawnSync('mkfifo', [p]).status).toBe(0);
};

describe('a FIFO in place of a registry file never hangs a read or an update', () => {
  let w: Awaited<ReturnType<typeof makeWorkspace>>;
  beforeEach(async () => {
    w = await makeWorkspace('mam-reg-fifo-');
  });
  afterEach(async () => {
    await w.dispose();
  });

  it('a FIFO as the YAML: snapshot and update reject with RegistryCorruptError at once, and the lock is free after', async () => {
    mkfifo(w.yaml);
    const started = Date.now();
    const reg = new SessionRegistry(w.ws, { lockTimeoutMs: 2000 });
    const snap = await reg.snapshot().catch((e: unknown) => e);
    expect(snap).toBeInstanceOf(RegistryCorruptError);
    expect((snap as RegistryCorruptError).data.path).toBe(w.yaml);
    expect((snap as RegistryCorruptError).data.issues[0]?.problem).toBe('not-a-file');
    await expect(reg.inspect()).rejects.toBeInstanceOf(RegistryCorruptError);
    await expect(reg.update(() => 1)).rejects.toBeInstanceOf(RegistryCorruptError);
    expect(Date.now() - started).toBeLessThan(3000);
    // The lock was released: once the FIFO is gone, another instance updates at once.
    await unlink(w.yaml);
    const other = new SessionRegistry(w.ws, { lockTimeoutMs: 2000 });
    await other.update((d) => {
      d.herdr_sessions.push(makeRow('a', 'claude', w.ws));
    });
    expect((await other.snapshot()).herdr_sessions.map((r) => r.name)).toEqual(['a']);
  }, 10_000);

  it('a directory as the YAML is RegistryCorruptError too', async () => {
    await mkdir(w.yaml);
    await expect(new SessionRegistry(w.ws).snapshot()).rejects.toBeInstanceOf(RegistryCorruptError);
  });

  it('a FIFO as the lock file: update rejects with REGISTRY_FILE_REFUSED (not-regular) at once instead of blocking the event loop', async () => {
    const lock = w.yaml.replace(/\.yaml$/, '.lock');
    mkfifo(lock);
    const started = Date.now();
    const err = await new SessionRegistry(w.ws, { lockTimeoutMs: 2000 }).update(() => 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryFileRefusedError);
    expect((err as RegistryFileRefusedError).data).toEqual({ path: lock, problem: 'not-regular' });
    expect(Date.now() - started).toBeLessThan(3000);
    // acquireLock itself still refuses it without hanging (the registry's check aside).
    const direct = await acquireLock(lock, { clock: new NodeClock(), timeoutMs: 100 }).catch((e: unknown) => e);
    expect(isPortError(direct, 'NotRegularFile')).toBe(true);
  }, 10_000);

  // Issue 31: a FIFO as the mirror used to be a warning after the YAML was written; every registry name is now checked
  // before anything is written, so the update is refused and the YAML is left as it was.
  it('a FIFO as the SQLite mirror: the update is refused before anything is written, without hanging', async () => {
    mkfifo(w.db);
    const reg = new SessionRegistry(w.ws);
    const started = Date.now();
    const err = await reg.update((d) => {
      d.herdr_sessions.push(makeRow('a', 'claude', w.ws));
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryFileRefusedError);
    expect((err as RegistryFileRefusedError).data).toEqual({ path: w.db, problem: 'not-regular' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await reg.snapshot()).herdr_sessions).toEqual([]);
    // Once the FIFO is gone, the next update (of another instance) writes the YAML and the mirror.
    await rm(w.db);
    await reg.update((d) => {
      d.herdr_sessions.push(makeRow('a', 'claude', w.ws));
    });
    const next = new SessionRegistry(w.ws);
    await next.update(() => undefined);
    expect(next.lastWarning).toBeNull();
    expect(readMirror(w.db)?.names.map((n) => n.name)).toEqual(['a']);
  }, 10_000);
});
