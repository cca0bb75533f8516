// AbortSignal on the long calls: discover, PurgeService.plan/execute/purge, inspectStores, SessionRegistry.update and
// buildSandbox reject with the signal's reason when it aborts between steps — never a half-done purge (an abort once the
// removal has begun lets it finish) or a half-done registry write — on real temp dirs with seeded conversations.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../../src/agents/get-adapter.js';
import { inspectStores } from '../../src/inspect/inspect-stores.js';
import type { FileSystemPort } from '../../src/ports/fs.js';
import type { Ports } from '../../src/ports/index.js';
import { PurgeService } from '../../src/purge/purge-service.js';
import { pinRow } from '../../src/registry/pin-row.js';
import { FakeProcessTable } from '../../src/testing/process/fake-process-table.js';
import { buildSandbox } from '../../src/testing/sandbox/build-sandbox.js';
import type { Sandbox } from '../../src/testing/sandbox/sandbox-types.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await buildSandbox(await mkdtemp(join(tmpdir(), 'mam-abort-')));
});
afterAll(async () => {
  await sb?.[Symbol.asyncDispose]();
});

// No process plays a seeded conversation: an empty process table spares the real holder scans.
function quietPorts(fs?: FileSystemPort): Ports {
  const real = sb.ports();
  return { ...real, ...(fs === undefined ? {} : { fs }), proc: new FakeProcessTable([], { onRun: (file, args, opts) => real.proc.run(file, args, opts) }) };
}

// The real filesystem port, calling `onCall(method)` before every call.
function watchedFs(onCall: (method: string) => void): FileSystemPort {
  const real = sb.ports().fs;
  return new Proxy(real, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver) as unknown;
      if (typeof v !== 'function' || typeof key !== 'string') return v;
      return (...args: unknown[]) => {
        onCall(key);
        return Reflect.apply(v as (...a: unknown[]) => unknown, target, args);
      };
    },
  });
}

const reason = (): Error => new Error('stopped by the caller');
const aborted = (): AbortSignal => AbortSignal.abort(reason());

describe('an AbortSignal stops a long call between steps, with the signal’s reason', () => {
  it('discover: an aborted signal rejects with its reason; one aborted while it reads rejects too', async () => {
    await sb.seed('codex');
    const codex = getAdapter('codex', { ports: quietPorts() });
    const why = reason();
    await expect(codex.discover(sb.context({ signal: AbortSignal.abort(why) }))).rejects.toBe(why);
    const c = new AbortController();
    const reading = getAdapter('codex', { ports: quietPorts(watchedFs(() => c.abort(why))) });
    await expect(reading.discover(sb.context({ signal: c.signal }))).rejects.toBe(why);
    expect((await codex.discover(sb.context({ signal: new AbortController().signal }))).length).toBeGreaterThan(0);
  });

  it('purge: aborted before the removal, nothing is removed; the same purge then runs', async () => {
    const id = await sb.seed('codex');
    const service = new PurgeService({ ports: quietPorts() });
    const why = reason();
    await expect(service.purge('auto', id, { home: sb.home, signal: AbortSignal.abort(why) })).rejects.toBe(why);
    const plan = await service.plan('codex', id, { home: sb.home });
    expect(plan.verdict).toBe('purge');
    expect(plan.options).not.toHaveProperty('signal');
    await expect(service.execute(plan, { signal: aborted() })).rejects.toThrow('stopped by the caller');
    expect(await getAdapter('codex', { ports: quietPorts() }).verifyArtifact(id, sb.context(), 'verify')).toBe(true);
    await expect(service.plan('codex', id, { home: sb.home, signal: aborted() })).rejects.toThrow('stopped by the caller');
    expect((await service.execute(plan)).kind).toBe('purged');
  });

  it('purge: aborted while planning (at its first read), it rejects and nothing is removed', async () => {
    const id = await sb.seed('claude');
    const c = new AbortController();
    const service = new PurgeService({ ports: quietPorts(watchedFs(() => c.abort(reason()))) });
    await expect(service.purge('auto', id, { home: sb.home, signal: c.signal })).rejects.toThrow('stopped by the caller');
    expect(await getAdapter('claude', { ports: quietPorts() }).verifyArtifact(id, sb.context(), 'verify')).toBe(true);
  });

  it('purge: an abort once the removal has begun lets it finish, and the result says what it did', async () => {
    // Codex deletes rows, then files (the first openDir of a removal); Claude removes files and directories.
    for (const agent of ['codex', 'claude'] as const) {
      const id = await sb.seed(agent);
      const c = new AbortController();
      let removals = 0;
      const fs = watchedFs((m) => {
        if (m === 'openDir') {
          removals++;
          c.abort(reason());
        }
      });
      const service = new PurgeService({ ports: quietPorts(fs) });
      const plan = await new PurgeService({ ports: quietPorts() }).plan(agent, id, { home: sb.home });
      const result = await service.execute(plan, { signal: c.signal });
      expect({ agent, kind: result.kind }).toEqual({ agent, kind: 'purged' });
      expect(removals).toBeGreaterThan(0);
      expect(c.signal.aborted).toBe(true);
      expect(await getAdapter(agent, { ports: quietPorts() }).hasArtifacts(id, sb.context())).toBe(false);
    }
  });

  it('inspectStores: an aborted signal rejects; aborted while it reads, it rejects rather than report a failed store', async () => {
    const why = reason();
    await expect(inspectStores({ home: sb.home, env: sb.env, signal: AbortSignal.abort(why) })).rejects.toBe(why);
    const c = new AbortController();
    await expect(inspectStores({ home: sb.home, env: sb.env, ports: quietPorts(watchedFs(() => c.abort(why))), signal: c.signal })).rejects.toBe(why);
    expect((await inspectStores({ home: sb.home, env: sb.env, ports: quietPorts(), signal: new AbortController().signal })).length).toBeGreaterThan(0);
  });

  it('SessionRegistry.update: aborted before or during the mutator, nothing is written', async () => {
    const id = await sb.seed('codex');
    const yaml = join(sb.workspace, '.mam', 'agent-sessions.yaml');
    await sb.registry.update((d) => {
      d.herdr_sessions.push({ name: 'rev-codex-01', agent: 'codex', role: 'reviewer', status: 'running' } as never);
    });
    const before = readFileSync(yaml, 'utf8');
    await expect(sb.registry.update((d) => pinRow(d, 'rev-codex-01', id), { signal: aborted() })).rejects.toThrow('stopped by the caller');
    const c = new AbortController();
    await expect(
      sb.registry.update(
        (d) => {
          pinRow(d, 'rev-codex-01', id);
          c.abort(reason());
        },
        { signal: c.signal },
      ),
    ).rejects.toThrow('stopped by the caller');
    expect(readFileSync(yaml, 'utf8')).toBe(before);
    await sb.registry.update((d) => pinRow(d, 'rev-codex-01', id), { signal: new AbortController().signal });
    expect(readFileSync(yaml, 'utf8')).toContain(id);
    await expect(sb.registry.update(() => undefined, { signal: 'no' as never })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', data: { param: 'opts.signal' } });
  });

  it('buildSandbox: an aborted signal rejects before anything is laid out', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'mam-abort-sb-')), 'sb');
    await expect(buildSandbox(dir, { signal: aborted() })).rejects.toThrow('stopped by the caller');
    expect(existsSync(dir)).toBe(false);
  });
});
