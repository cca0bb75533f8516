// What purge('auto', id) resolution reads, counted: each agent database opened once per resolve, no agent after the first
// owner asked, the Claude key dirs listed once, the listings only a leftover can need (todos/, telemetry/, the rollout date dirs) read only when the id's own
// names are not there, and the context checked (its home stat'ed) once for every adapter.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adaptersOf } from '../../src/agents/adapters-of.js';
import { nodePorts } from '../../src/node/node-ports.js';
import type { FileSystemPort } from '../../src/ports/fs.js';
import type { Ports } from '../../src/ports/index.js';
import { PurgeService } from '../../src/purge/purge-service.js';
import { withReadScope } from '../../src/sqlite/read-scope.js';
import { type BigHome, bigHome, v7Of } from '../helpers/big-homes.js';

let root: string;
let big: BigHome;
let env: Record<string, string>;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-auto-lookups-')));
  big = bigHome(root, 0.01);
  env = { HOME: big.home, PATH: '/nonexistent-mam-bin', TMPDIR: join(root, 'no-tmp') };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Node ports whose file system records every call as `<method> <path>`.
function counted(): { ports: Ports; calls: string[] } {
  const base = nodePorts({ env });
  const calls: string[] = [];
  const fs = new Proxy(base.fs, {
    get(target, key) {
      const v = Reflect.get(target, key) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        calls.push(`${String(key)} ${String(args[0])}`);
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as FileSystemPort;
  return { ports: { ...base, fs }, calls };
}

const ctx = (): { workspace: string; home: string; env: Record<string, string> } => ({ workspace: big.home, home: big.home, env });

describe("purge('auto', id) resolution reads by id", () => {
  it('opens each database once, stats the home once, and lists no rollout dir for a Codex thread the DB names', async () => {
    const { ports, calls } = counted();
    const service = new PurgeService({ ports });
    const id = big.codex.ids[3] as string;
    const stats = { opens: [] as string[] };
    expect(await withReadScope(() => service.resolve(id, ctx()), stats)).toBe('codex');
    expect(stats.opens).toEqual([big.codex.db]);
    expect(calls.filter((c) => c === `stat ${big.home}`)).toHaveLength(1);
    expect(calls.filter((c) => c.startsWith('readdir ') && c.includes(join('.codex', 'sessions')))).toEqual([]);
  });

  it('claude: a transcript found by name lists the key dirs once and nothing else; an id it lacks lists each place once', async () => {
    const { ports, calls } = counted();
    const claude = adaptersOf(ports).get('claude');
    const cfg = join(big.home, '.claude');
    expect(await claude.owns?.(big.claude.ids[2] as string, ctx())).toBe(true);
    expect(calls.filter((c) => c.startsWith('readdir '))).toEqual([`readdir ${big.claude.projects}`]);
    calls.length = 0;
    expect(await claude.owns?.(v7Of(Date.UTC(2026, 2, 3), 7), ctx())).toBe(false);
    const listed = calls.filter((c) => c.startsWith('readdir ')).sort();
    expect(listed).toEqual(
      [big.claude.projects, join(cfg, 'todos'), join(cfg, 'telemetry'), join(root, 'no-tmp'), join(cfg, 'jobs'), join(cfg, 'sessions'), cfg].map((d) => `readdir ${d}`).sort(),
    );
  });

  it('a Claude transcript: no later agent is asked (no Codex database opened, nothing under .codex or .gemini read)', async () => {
    const { ports, calls } = counted();
    const stats = { opens: [] as string[] };
    expect(await withReadScope(() => new PurgeService({ ports }).resolve(big.claude.ids[1] as string, ctx()), stats)).toBe('claude');
    expect(stats.opens).toEqual([]);
    expect(calls.filter((c) => c.includes('.codex') || c.includes('.gemini'))).toEqual([]);
  });

  it('an OpenCode session: one open of its database, no other agent asked', async () => {
    const { ports } = counted();
    const stats = { opens: [] as string[] };
    expect(await withReadScope(() => new PurgeService({ ports }).resolve(big.opencode.ids[4] as string, ctx()), stats)).toBe('opencode');
    expect(stats.opens).toEqual([big.opencode.db]);
  });
});
