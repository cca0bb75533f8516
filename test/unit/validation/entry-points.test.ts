// Every covered public entry point × the arguments plain JS gets wrong (undefined, a number, '', a relative path, a home
// that does not exist or is a file, a NUL byte): one typed fault, INVALID_ARGUMENT naming the parameter, and nothing
// created on disk (the temp tree and the current directory listed before and after).
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../../../src/agents/get-adapter.js';
import { captureSessionId } from '../../../src/capture/index.js';
import { isMamError, UnknownAgentError } from '../../../src/errors.js';
import { AGENT_NAMES, type AgentName } from '../../../src/ids/agent-names.js';
import { inspectStores } from '../../../src/inspect/inspect-stores.js';
import { InvalidArgumentError } from '../../../src/invalid-argument-error.js';
import { SessionRegistry } from '../../../src/registry/session-registry.js';
import { installFakeAgents } from '../../../src/testing/agents/install-fake-agents.js';
import { installFakeHerdr } from '../../../src/testing/herdr/install-fake-herdr.js';
import { startFakeModelServer } from '../../../src/testing/model-server/start-fake-model-server.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { buildSandbox } from '../../../src/testing/sandbox/build-sandbox.js';
import { portsWith } from '../../helpers/adapter-agy-files.js';
import { makeTempDir } from '../../helpers/fs-temp.js';
import { fault, listing } from '../../helpers/argument-faults.js';

let root: string;
let dispose: () => Promise<void>;
let home: string;
let ws: string;
let file: string;
beforeAll(async () => {
  ({ dir: root, dispose } = await makeTempDir('mam-entry-points-'));
  home = join(root, 'home');
  ws = join(root, 'ws');
  file = join(root, 'a-file');
  mkdirSync(home);
  mkdirSync(ws);
  writeFileSync(file, 'not a dir');
});
afterAll(() => dispose());

const ID = '01a229f2-dd9f-7f71-b03f-29e4937c4596';
// A plausible id of each agent: an implausible one reaches no path, so its home is not looked at (see below).
const idOf = (agent: AgentName): string => (agent === 'opencode' ? 'ses_dd6159fa8ffeNLy5GqcBDiUnlX' : ID);
const ports = () => portsWith(new FakeProcessTable([{ pid: 1, argv: ['init'] }]));

/** The bad values: each applies to the parameters of its kinds. */
type Kind = 'id' | 'path' | 'home' | 'object';
const BAD: ReadonlyArray<{ what: string; value: () => unknown; kinds: readonly Kind[] }> = [
  { what: 'undefined', value: () => undefined, kinds: ['id', 'path', 'home', 'object'] },
  { what: 'a number', value: () => 42, kinds: ['id', 'path', 'home', 'object'] },
  { what: "''", value: () => '', kinds: ['path', 'home'] },
  { what: 'a relative path', value: () => 'relative/path', kinds: ['path', 'home'] },
  { what: 'a NUL byte', value: () => `${root}/nul\0byte`, kinds: ['path', 'home'] },
  { what: 'a home that does not exist', value: () => join(root, 'nonexistent'), kinds: ['home'] },
  { what: 'a file as home', value: () => file, kinds: ['home'] },
];

/** One parameter of one entry point: how to call it with `bad` there (valid arguments everywhere else). */
interface Case {
  entry: string;
  /** Bad values of the kind that do not apply here. */
  skip?: readonly string[];
  param: string;
  kind: Kind;
  call: (bad: unknown) => unknown;
}

const METHODS_WITH_ID = ['verifyArtifact', 'conversationInUse', 'inUseHolders', 'inUseHints', 'planPurge', 'purgeArtifacts', 'residualArtifacts', 'mentions', 'hasArtifacts', 'purgeNotesOf'] as const;
const METHODS_CTX_ONLY = ['discover', 'survey', 'authOk', 'preflight', 'inspect'] as const;

function adapterCases(agent: AgentName): Case[] {
  const a = () => getAdapter(agent, { ports: ports() }) as unknown as Record<string, (...args: unknown[]) => unknown>;
  const ctxWith = (field: string, bad: unknown) => ({ workspace: ws, home, [field]: bad });
  const out: Case[] = [];
  for (const m of METHODS_CTX_ONLY) {
    if (typeof a()[m] !== 'function') continue;
    out.push({ entry: `${agent}.${m}`, param: 'ctx', kind: 'object', call: (bad) => a()[m]?.(bad) });
    out.push({ entry: `${agent}.${m}`, param: 'ctx.workspace', kind: 'path', call: (bad) => a()[m]?.(ctxWith('workspace', bad)) });
    out.push({ entry: `${agent}.${m}`, param: 'ctx.home', kind: 'home', call: (bad) => a()[m]?.(ctxWith('home', bad)) });
    out.push({ entry: `${agent}.${m}`, param: 'ctx.homeDir', kind: 'home', skip: ['undefined'], call: (bad) => a()[m]?.({ workspace: ws, homeDir: bad }) });
  }
  for (const m of METHODS_WITH_ID) {
    if (typeof a()[m] !== 'function') continue;
    out.push({ entry: `${agent}.${m}`, param: 'id', kind: 'id', call: (bad) => a()[m]?.(bad, { workspace: ws, home }) });
    out.push({ entry: `${agent}.${m}`, param: 'ctx', kind: 'object', call: (bad) => a()[m]?.(idOf(agent), bad) });
    out.push({ entry: `${agent}.${m}`, param: 'ctx.workspace', kind: 'path', call: (bad) => a()[m]?.(idOf(agent), ctxWith('workspace', bad)) });
    // inUseHints is synchronous and reads nothing: it checks the home's shape, not whether it exists.
    const sync = m === 'inUseHints' ? ['a home that does not exist', 'a file as home'] : [];
    out.push({ entry: `${agent}.${m}`, param: 'ctx.home', kind: 'home', skip: sync, call: (bad) => a()[m]?.(idOf(agent), ctxWith('home', bad)) });
  }
  out.push({ entry: `${agent}.captureActiveSessionId`, param: 'row', kind: 'object', call: (bad) => a()['captureActiveSessionId']?.(bad, { workspace: ws, home }) });
  out.push({ entry: `${agent}.captureActiveSessionId`, param: 'ctx.home', kind: 'home', call: (bad) => a()['captureActiveSessionId']?.({ name: 'r', status: 'running' }, ctxWith('home', bad)) });
  return out;
}

const row = { name: 'coder-codex-01', status: 'running' as const, agent: 'codex' as const };
const CASES: Case[] = [
  ...AGENT_NAMES.flatMap(adapterCases),
  { entry: 'getAdapter', param: 'name', kind: 'object', call: (bad) => getAdapter(bad as AgentName) },
  { entry: 'getAdapter', param: 'opts.ports', kind: 'id', call: (bad) => getAdapter('codex', { ports: bad as never }) },
  { entry: 'inspectStores', param: 'opts', kind: 'object', call: (bad) => inspectStores(bad as never) },
  { entry: 'inspectStores', param: 'opts.home', kind: 'home', call: (bad) => inspectStores({ home: bad as string, ports: ports() }) },
  { entry: 'captureSessionId', param: 'input.ctx.home', kind: 'home', call: (bad) => captureSessionId({ ports: ports(), agent: 'codex', row, live: null, ctx: { workspace: ws, home: bad as string }, claimed: [] }) },
  { entry: 'captureSessionId', param: 'input.ctx.workspace', kind: 'path', call: (bad) => captureSessionId({ ports: ports(), agent: 'codex', row, live: null, ctx: { workspace: bad as string, home }, claimed: [] }) },
  { entry: 'captureSessionId', param: 'input.claimed', kind: 'id', call: (bad) => captureSessionId({ ports: ports(), agent: 'codex', row, live: null, ctx: { workspace: ws, home }, claimed: bad as string[] }) },
  { entry: 'SessionRegistry', param: 'workspace', kind: 'path', call: (bad) => new SessionRegistry(bad as string) },
  { entry: 'SessionRegistry.update', param: 'mutate', kind: 'id', call: (bad) => new SessionRegistry(ws).update(bad as never) },
  { entry: 'buildSandbox', param: 'dir', kind: 'path', call: (bad) => buildSandbox(bad as string) },
  { entry: 'installFakeAgents', param: 'binDir', kind: 'path', call: (bad) => installFakeAgents(bad as string, { home }) },
  { entry: 'installFakeAgents', param: 'opts.home', kind: 'path', call: (bad) => installFakeAgents(join(root, 'bin'), { home: bad as string }) },
  { entry: 'installFakeHerdr', param: 'binDir', kind: 'path', call: (bad) => installFakeHerdr(bad as string, { statePath: join(root, 'herdr', 'state.json') }) },
  { entry: 'installFakeHerdr', param: 'opts.statePath', kind: 'path', call: (bad) => installFakeHerdr(join(root, 'bin'), { statePath: bad as string }) },
  { entry: 'startFakeModelServer', param: 'opts', kind: 'id', call: (bad) => startFakeModelServer(bad as never) },
];

const ROWS = CASES.flatMap((c) => BAD.filter((b) => b.kinds.includes(c.kind) && !(c.skip ?? []).includes(b.what)).map((b) => ({ ...c, what: b.what, value: b.value })))
  // `undefined` for an optional argument is its default, not a mistake.
  .filter((r) => !(r.what === 'undefined' && ['getAdapter opts.ports', 'startFakeModelServer opts'].includes(`${r.entry} ${r.param}`)));


describe('INVALID_ARGUMENT at every covered entry point', () => {
  it.each(ROWS)('$entry with $param = $what', async ({ call, value, param }) => {
    const before = [listing(root), readdirSync(process.cwd()).sort()];
    const err = await fault(() => call(value()));
    expect(err, 'a typed fault, not a TypeError or a result').toBeInstanceOf(InvalidArgumentError);
    expect(isMamError(err)).toBe(true);
    expect((err as InvalidArgumentError).code).toBe('INVALID_ARGUMENT');
    expect((err as InvalidArgumentError).data.param).toBe(param);
    expect([listing(root), readdirSync(process.cwd()).sort()]).toEqual(before);
    expect(existsSync(resolve('relative'))).toBe(false);
  });

  it('the table covers every public adapter method of every agent', () => {
    const covered = new Set(ROWS.map((r) => r.entry));
    for (const agent of AGENT_NAMES) {
      for (const m of ['discover', 'verifyArtifact', 'captureActiveSessionId', 'conversationInUse', 'inUseHolders', 'inUseHints', 'planPurge', 'purgeArtifacts', 'residualArtifacts', 'mentions', 'hasArtifacts', 'authOk', 'survey', 'preflight']) {
        expect(covered, `${agent}.${m}`).toContain(`${agent}.${m}`);
      }
    }
  });
});

describe('what stays a value', () => {
  it('the same calls with good arguments do not throw (so the faults above come from the bad one)', async () => {
    const codex = getAdapter('codex', { ports: ports() });
    const ctx = { workspace: ws, home };
    expect(await codex.discover(ctx)).toEqual([]);
    expect(await codex.discover({ workspace: ws, homeDir: home })).toEqual([]);
    expect(await codex.discover({ workspace: ws, home, homeDir: home })).toEqual([]);
    expect(await codex.planPurge(ID, ctx)).toMatchObject({ artifacts: [] });
    expect(await codex.survey(ctx)).toMatchObject({ store: 'missing' });
    expect(codex.inUseHints(ID, ctx)).toHaveLength(2);
    expect(await inspectStores({ home, ports: ports() })).toHaveLength(AGENT_NAMES.length);
  });

  it('an implausible id (empty, relative, NUL) stays "nothing", and its home is not even looked at', async () => {
    const codex = getAdapter('codex', { ports: ports() });
    const nowhere = { workspace: ws, home: join(root, 'nonexistent') };
    for (const id of ['', 'relative/path', `${ID}\0`]) {
      expect(await codex.purgeArtifacts(id, nowhere)).toEqual([]);
      expect(await codex.hasArtifacts(id, nowhere)).toBe(false);
    }
  });

  it('home and homeDir both given and different: INVALID_ARGUMENT naming ctx.homeDir', async () => {
    const err = await fault(() => getAdapter('claude', { ports: ports() }).discover({ workspace: ws, home, homeDir: ws }));
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).data.param).toBe('ctx.homeDir');
  });

  it('neither home nor homeDir: INVALID_ARGUMENT naming ctx.home', async () => {
    const err = await fault(() => getAdapter('claude', { ports: ports() }).discover({ workspace: ws } as never));
    expect((err as InvalidArgumentError).data).toMatchObject({ param: 'ctx.home' });
  });

  it('getAdapter: any other string is an UnknownAgentError, as before', () => {
    for (const name of ['CLAUDE', 'claude-code', '', 'auto']) expect(() => getAdapter(name as AgentName)).toThrow(UnknownAgentError);
  });

  it('a relative home through the deprecated spelling names ctx.homeDir', async () => {
    const err = await fault(() => getAdapter('hermes', { ports: ports() }).discover({ workspace: ws, homeDir: 'rel' }));
    expect((err as InvalidArgumentError).data).toMatchObject({ param: 'ctx.homeDir', problem: expect.stringContaining('absolute') });
  });
});
