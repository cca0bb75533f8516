// Full disk (issue 13): when the YAML was written but the SQLite mirror write failed, update() threw
// RegistryMirrorError { yamlWritten: true } and a caller that retried on a throw applied its change twice. Now update()
// resolves once the YAML is committed (the mirror failure is a warning) and throws only when nothing was applied, so
// retry-on-throw applies every change exactly once. ENOSPC injected at each write of an update, then a real tiny tmpfs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PortError } from '../../src/errors.js';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { RegistryMirrorError, SessionRegistry } from '../../src/registry/index.js';
import { RecordingFileSystem } from '../../src/testing/index.js';
import { withOverrides } from '../helpers/fs-overrides.js';
import { makeRow, makeWorkspace } from '../helpers/registry-fixtures.js';
import { readMirror } from '../helpers/registry-mirror.js';

// What a careful caller does: a throw means "not applied", so it tries again (at most a few times).
async function retryOnThrow(reg: () => SessionRegistry, name: string, cwd: string): Promise<number> {
  for (let attempt = 1; attempt <= 6; attempt++) {
    try {
      await reg().update((d) => {
        d.herdr_sessions.push(makeRow(name, 'claude', cwd));
      });
      return attempt;
    } catch {
      // Not applied: try again.
    }
  }
  throw new Error(`${name} never applied`);
}

describe('a full disk never applies a change twice nor loses one', () => {
  let w: Awaited<ReturnType<typeof makeWorkspace>>;
  beforeEach(async () => {
    w = await makeWorkspace('mam-reg-full-');
  });
  afterEach(async () => {
    await w.dispose();
  });

  it('ENOSPC at each write of an update, retried on throw: every change is applied exactly once', async () => {
    const names: string[] = [];
    for (let n = 1; n <= 5; n++) {
      let first = true;
      // The fault hits the n-th mutation of the first attempt only (a disk that frees up again).
      const fs = new RecordingFileSystem(new NodeFileSystem(), { failAt: (_m, k) => (first && k === n ? 'ENOSPC' : null) });
      const name = `row-${n}`;
      names.push(name);
      await retryOnThrow(
        () => {
          const r = new SessionRegistry(w.ws, { ports: { fs } });
          return r;
        },
        name,
        w.ws,
      );
      first = false;
      const rows = (await new SessionRegistry(w.ws).snapshot()).herdr_sessions.map((r) => r.name);
      expect(rows).toEqual(names);
    }
    expect(readdirSync(w.mam).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a directory fsync that fails after the rename: the update resolves (applied once) with a warning', async () => {
    const real = new NodeFileSystem();
    const fs = withOverrides(real, {
      fsyncDir: async (p: string) => {
        throw new PortError('IoError', 'fs.fsyncDir', 'EIO: i/o error', { path: p, errno: 'EIO' });
      },
    });
    const warnings: unknown[] = [];
    const reg = new SessionRegistry(w.ws, { ports: { fs }, onWarning: (x) => warnings.push(x) });
    const attempts = await retryOnThrow(() => reg, 'a', w.ws);
    expect(attempts).toBe(1);
    expect(warnings).toHaveLength(1);
    expect((await reg.snapshot()).herdr_sessions.map((r) => r.name)).toEqual(['a']);
  });

  it('the mirror write fails after the YAML was written: resolves, warns RegistryMirrorError{yamlWritten}, the next update rebuilds it', async () => {
    await new SessionRegistry(w.ws).update((d) => {
      d.herdr_sessions.push(makeRow('a', 'claude', w.ws));
    });
    // The mirror cannot be made (ENOSPC when its file is created, after the YAML write): the YAML write still goes through.
    // (A directory where the database was is refused before anything is written: registry-links.test.ts.)
    rmSync(w.db);
    const fs = new RecordingFileSystem(new NodeFileSystem(), { failAt: (m) => (m.op === 'writeFile' && m.path === w.db ? 'ENOSPC' : null) });
    const warnings: RegistryMirrorError[] = [];
    const reg = new SessionRegistry(w.ws, { ports: { fs }, onWarning: (x) => warnings.push(x as RegistryMirrorError) });
    expect(await retryOnThrow(() => reg, 'b', w.ws)).toBe(1);
    expect(warnings.map((x) => [x.code, x.data.yamlWritten])).toEqual([['REGISTRY_MIRROR_FAILED', true]]);
    expect((await reg.snapshot()).herdr_sessions.map((r) => r.name)).toEqual(['a', 'b']);
    const next = new SessionRegistry(w.ws);
    await next.update(() => undefined);
    expect(next.lastWarning).toBeNull();
    expect(readMirror(w.db)?.names.map((r) => r.name)).toEqual(['a', 'b']);
  });
});

// A real full disk: a 192 KiB tmpfs (mounting needs root; skipped without it). The disk is filled, then changes are
// made with retry-on-throw while filler is freed a little after each failure: every change lands exactly once, in order.
const probe = mkdtempSync(join(tmpdir(), 'mam-tmpfs-probe-'));
const canMount = process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=192k', 'tmpfs', probe]).status === 0;
if (canMount) spawnSync('umount', [probe]);
rmSync(probe, { recursive: true, force: true });

describe.skipIf(!canMount)('on a real tiny tmpfs', () => {
  let mnt: string;
  beforeEach(() => {
    mnt = mkdtempSync(join(tmpdir(), 'mam-tmpfs-'));
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=192k', 'tmpfs', mnt]).status).toBe(0);
  });
  afterEach(() => {
    spawnSync('umount', [mnt]);
    rmSync(mnt, { recursive: true, force: true });
  });

  it('ENOSPC from the YAML or the mirror: retried changes are applied exactly once and none is lost', async () => {
    // Every instance keeps a mirror connection open: all are closed so the tmpfs can be unmounted.
    const opened: SessionRegistry[] = [];
    const open = (opts: ConstructorParameters<typeof SessionRegistry>[1] = {}): SessionRegistry => {
      const r = new SessionRegistry(join(mnt, 'ws'), opts);
      opened.push(r);
      return r;
    };
    try {
      await fillAndUpdate(mnt, open);
    } finally {
      for (const r of opened) r.close();
    }
  }, 30_000);
});

async function fillAndUpdate(mnt: string, open: (opts?: ConstructorParameters<typeof SessionRegistry>[1]) => SessionRegistry): Promise<void> {
  {
    const ws = join(mnt, 'ws');
    mkdirSync(join(ws, '.mam'), { recursive: true });
    await open().update((d) => {
      d.herdr_sessions.push(makeRow('seed', 'claude', ws));
    });
    // Fill the disk with 4 KiB chunks until it refuses.
    const fillers: string[] = [];
    for (let i = 0; ; i++) {
      const f = join(mnt, `fill-${i}`);
      try {
        writeFileSync(f, Buffer.alloc(4096, 1));
        fillers.push(f);
      } catch {
        rmSync(f, { force: true });
        break;
      }
    }
    const names = ['seed'];
    let failures = 0;
    let warned = 0;
    for (let i = 0; i < 12; i++) {
      const name = `row-${i}-${'x'.repeat(200)}`;
      names.push(name);
      for (let attempt = 0; ; attempt++) {
        const reg = open({ onWarning: () => warned++ });
        try {
          await reg.update((d) => {
            d.herdr_sessions.push(makeRow(name, 'claude', ws));
          });
          break;
        } catch {
          failures++;
          // Free one chunk and try again.
          const f = fillers.pop();
          if (f === undefined) throw new Error('disk still full with every filler freed');
          rmSync(f);
        }
        expect(attempt).toBeLessThan(40);
      }
      expect((await open().snapshot()).herdr_sessions.map((r) => r.name)).toEqual(names);
    }
    expect(failures + warned).toBeGreaterThan(0);
    for (const f of fillers.splice(0)) rmSync(f);
    const last = open();
    await last.update(() => undefined);
    expect(readMirror(join(ws, '.mam', 'agent-sessions.db'))?.names.map((r) => r.name)).toEqual(names);
  }
}
