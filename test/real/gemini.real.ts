// Gemini CLI, the real CLI against the loopback model server (Gemini API): two conversations in one workspace and one in
// another of the same basename (`wsA`, `other/wsA`: project short names `wsa`, `wsa-1`), pre-assigned ids created and
// resumed; a live turn running a shell tool on one id, then SIGKILLed; then the library end to end on what it wrote.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAdapter, PurgeService, type HomeDiscoveryContext } from '../../src/index.js';
import { startFakeModelServer, type FakeModelServer } from '../../src/testing/index.js';
import { killedPurgeThenRerun } from './support/killed-purge.js';
import { realCli } from './support/real-clis.js';
import { expectEveryByteAccounted, expectRefusedPurgeChangesNothing, expectTurnCarries, purgeAndCheck, type Purged } from './support/purge-steps.js';
import { alive, killSandboxProcesses, runCli, sandboxPids, startCli, waitFor, type LiveCli } from './support/run-cli.js';
import { makeSandbox, type RealSandbox } from './support/sandbox.js';
import { Sleepers } from './support/sleeper.js';

const cli = realCli('gemini');
const MODEL = 'gemini-2.5-flash';

let sb: RealSandbox;
let server: FakeModelServer;
let sleepers: Sleepers;
let wsA: string;
let otherA: string;
const ids = { a1: randomUUID(), a2: randomUUID(), b1: randomUUID(), probe: '' };
const repo = fileURLToPath(new URL('../..', import.meta.url));
const probeOut = () => join(sb.root, 'probe.json');
let live: LiveCli | undefined;
let purgeA1: Purged | undefined;

const ctx = (workspace: string): HomeDiscoveryContext => ({ workspace, home: sb.home, env: sb.env });
const adapter = () => getAdapter('gemini');
const geminiArgs = (...args: string[]) => ['--skip-trust', '--yolo', '-m', MODEL, ...args];
const headless = (cwd: string, ...args: string[]) => runCli(cli.bin, geminiArgs(...args), { cwd, env: sb.env, timeoutMs: 120_000 });
const ok = async (cwd: string, ...args: string[]): Promise<void> => {
  const r = await headless(cwd, ...args);
  expect(r.code, r.stderr + r.stdout).toBe(0);
};
const chatsOf = (short: string): string => join(sb.home, '.gemini', 'tmp', short, 'chats');

// The shell tool runs in its own session and process group, which outlives a killed gemini: end that group too.
const killToolGroup = (pid: number): void => {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // gone, or not a group leader
    }
  }
};

describe.sequential(`gemini ${cli.version}`, () => {
  beforeAll(async () => {
    sb = makeSandbox('gemini', { GEMINI_API_KEY: 'fake-gemini-key', NO_COLOR: '1' });
    sleepers = new Sleepers(sb.root);
    wsA = join(sb.root, 'wsA');
    otherA = join(sb.root, 'other', 'wsA');
    for (const ws of [wsA, otherA]) {
      mkdirSync(ws, { recursive: true });
      writeFileSync(join(ws, 'README.md'), `workspace ${ws}\n`);
    }
    server = await startFakeModelServer({
      model: MODEL,
      script: [
        { kind: 'shell', command: 'echo shell-ran-A1', when: 'RUN-SHELL' },
        { kind: 'shell', command: sleepers.command('a1'), when: 'KEEPALIVE-A1' },
        // A purge run from the session's own tool shell (what it sees: GEMINI_CLI=1, no session id).
        {
          kind: 'shell',
          command: `${join(repo, 'node_modules/.bin/tsx')} ${join(repo, 'test/real/support/gemini-in-session-probe.ts')} ${probeOut()} ${sb.home} ${otherA}`,
          when: 'PROBE-IN-SESSION',
        },
      ],
    });
    sb.env['GOOGLE_GEMINI_BASE_URL'] = server.url;
    mkdirSync(join(sb.home, '.gemini'), { recursive: true });
    // API-key auth (without it the CLI picks the gateway auth from the base URL and exits 41); one attempt per request.
    writeFileSync(
      join(sb.home, '.gemini', 'settings.json'),
      `${JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' } },
        general: { enableAutoUpdate: false, maxAttempts: 1 },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
      })}\n`,
    );
  });

  afterAll(async () => {
    live?.signalGroup('SIGKILL');
    await sleepers?.killAll().catch(() => undefined);
    await server?.close();
    if (sb !== undefined) killSandboxProcesses(sb.root);
    if (process.env['MAM_REAL_KEEP'] === undefined) sb?.dispose();
  });

  it('creates (pre-assigned ids) and resumes conversations in two workspaces of the same basename', async () => {
    await ok(wsA, '--session-id', ids.a1, '-p', 'PROMPT-A1 first turn RUN-SHELL');
    expect(server.requests.some((r) => r.reply === 'after-tool')).toBe(true);
    await ok(wsA, '--resume', ids.a1, '-p', 'PROMPT-A1 second turn');
    await ok(wsA, '--session-id', ids.a2, '-p', 'PROMPT-A2 first turn');
    await ok(otherA, '--session-id', ids.b1, '-p', 'PROMPT-B1 first turn');
    await ok(otherA, '--resume', ids.b1, '-p', 'PROMPT-B1 second turn');
    const projects = JSON.parse(readFileSync(join(sb.home, '.gemini', 'projects.json'), 'utf8')) as { projects: Record<string, string> };
    expect(projects.projects).toEqual({ [wsA]: 'wsa', [otherA]: 'wsa-1' });
    for (const short of ['wsa', 'wsa-1']) expect(readFileSync(join(sb.home, '.gemini', 'tmp', short, '.project_root'), 'utf8').trim()).toBe(short === 'wsa' ? wsA : otherA);
    expect(server.requests.filter((r) => r.api === 'gemini-generate-content').length).toBeGreaterThanOrEqual(6);
    // A resume in another clock minute adds a second chat file naming the same id (the purge must find both).
    process.stdout.write(`[real] gemini chat files: ${['wsa', 'wsa-1'].flatMap((short) => readdirSync(chatsOf(short)).map((f) => `${short}/${f}`)).join(' ')}\n`);
  });

  it('discover offers each workspace its own conversations, newest first', async () => {
    expect(await adapter().discover(ctx(wsA))).toEqual([ids.a2, ids.a1]);
    expect(await adapter().discover(ctx(otherA))).toEqual([ids.b1]);
  });

  it('verify proves a conversation in its workspace only (the colliding basename included)', async () => {
    expect(await adapter().verifyArtifact(ids.a1, ctx(wsA))).toBe(true);
    expect(await adapter().verifyArtifact(ids.a2, ctx(wsA))).toBe(true);
    expect(await adapter().verifyArtifact(ids.b1, ctx(otherA))).toBe(true);
    expect(await adapter().verifyArtifact(ids.a1, ctx(otherA))).toBe(false);
    expect(await adapter().verifyArtifact(ids.b1, ctx(wsA))).toBe(false);
  });

  it('in use while a resumed turn runs a shell tool on the id; a refused purge changes nothing', async () => {
    live = startCli(cli.bin, geminiArgs('--resume', ids.a1, '-p', 'PROMPT-A1 third turn KEEPALIVE-A1'), { cwd: wsA, env: sb.env });
    await sleepers.started('a1');
    expect(await adapter().conversationInUse(ids.a1, ctx(wsA))).toBe(true);
    // A gemini working in a project may switch to any of its sessions: the sibling of the same project reads as in use.
    expect(await adapter().conversationInUse(ids.a2, ctx(wsA))).toBe(true);
    expect(await adapter().conversationInUse(ids.b1, ctx(otherA))).toBe(false);
    const holders = await adapter().inUseHolders(ids.a1, ctx(wsA));
    expect(holders.map((h) => h.signal)).toContain('command-line');
    // Stopped, the CLI cannot write (its tool's group sleeps on): any change to the tree is the purge's.
    await expectRefusedPurgeChangesNothing('gemini', ids.a1, sb, wsA, live);
  });

  it('after gemini and its tool group are killed, the conversation is no longer in use, and still verifies', async () => {
    const tool = sleepers;
    live!.signalGroup('SIGKILL');
    expect((await live!.exited).signal).toBe('SIGKILL');
    live = undefined;
    const toolPid = Number.parseInt(readFileSync(tool.file('a1'), 'utf8').trim(), 10);
    // Gemini CLI 0.61 leaves the tool's process group running when it dies.
    expect(alive(toolPid)).toBe(true);
    killToolGroup(toolPid);
    await tool.killAll();
    await waitFor('every gemini process to exit', () => (sandboxPids(sb.root).length === 0 ? true : undefined), 20_000);
    expect(await adapter().conversationInUse(ids.a1, ctx(wsA))).toBe(false);
    expect(await adapter().conversationInUse(ids.a2, ctx(wsA))).toBe(false);
    expect(await adapter().verifyArtifact(ids.a1, ctx(wsA))).toBe(true);
  });

  it('purge removes the conversation and reports what it left', async () => {
    purgeA1 = await purgeAndCheck('gemini', ids.a1, sb, wsA);
    expect(await adapter().discover(ctx(wsA))).toEqual([ids.a2]);
  });

  it('a byte search of the home finds the purged id nowhere but in the mentions the purge reported', () => {
    expectEveryByteAccounted('gemini purge of a SIGKILLed conversation', sb, ids.a1, purgeA1!);
  });

  it('the real CLI can no longer resume the purged conversation', async () => {
    const before = server.requests.length;
    const r = await headless(wsA, '--resume', ids.a1, '-p', 'PROMPT-A1 after purge');
    expect(r.code, r.stderr + r.stdout).toBe(42);
    expect(r.stderr + r.stdout).toContain(`Invalid session identifier "${ids.a1}"`);
    expect(server.requests.slice(before).filter((q) => q.api === 'gemini-generate-content')).toEqual([]);
  });

  it('the siblings still resume with their content (same project, and the colliding basename)', async () => {
    let before = server.requests.length;
    await ok(wsA, '--resume', ids.a2, '-p', 'PROMPT-A2 after the purge');
    expectTurnCarries(server, before, 'PROMPT-A2 after the purge', ['PROMPT-A2 first turn']);
    before = server.requests.length;
    await ok(otherA, '--resume', ids.b1, '-p', 'PROMPT-B1 after the purge');
    expectTurnCarries(server, before, 'PROMPT-B1 after the purge', ['PROMPT-B1 first turn', 'PROMPT-B1 second turn']);
  });

  it("a purge run from inside a gemini tool shell is refused: the caller's gemini ancestor holds it", async () => {
    const r = await headless(otherA, '-p', 'PROMPT-PROBE PROBE-IN-SESSION');
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const probe = JSON.parse(readFileSync(probeOut(), 'utf8')) as {
      id: string;
      geminiKeys: string[];
      holders: Array<{ pid: number; signal: string; detail?: string }>;
      purge: string;
    };
    ids.probe = probe.id;
    process.stdout.write(`[real] gemini tool shell exports: ${probe.geminiKeys.join(' ')}; holders: ${JSON.stringify(probe.holders)}\n`);
    expect([ids.a1, ids.a2, ids.b1]).not.toContain(probe.id);
    expect(probe.geminiKeys).toContain('GEMINI_CLI');
    expect(probe.geminiKeys).not.toContain('GEMINI_SESSION_ID');
    expect(probe.holders.map((h) => h.signal)).toContain('session-env');
    expect(probe.purge).toBe('in-use');
    expect(await adapter().discover(ctx(otherA))).toEqual([ids.probe, ids.b1]);
    expect(await adapter().verifyArtifact(ids.probe, ctx(otherA))).toBe(true);
  });

  it('no CLI process is left running', async () => {
    await waitFor('every gemini process to exit', () => (sandboxPids(sb.root).length === 0 ? true : undefined), 20_000).catch(() => undefined);
    expect(sandboxPids(sb.root)).toEqual([]);
  });

  it('a mam purge SIGKILLed at a seeded random point, then rerun: no byte of the id but in mentions', async () => {
    await killedPurgeThenRerun('gemini', ids.b1, sb, otherA);
    expect(await adapter().hasArtifacts(ids.b1, ctx(otherA))).toBe(false);
    expect(await adapter().discover(ctx(otherA))).toEqual([ids.probe]);
    // The other project's conversation is untouched.
    expect(await adapter().verifyArtifact(ids.a2, ctx(wsA))).toBe(true);
    expect(readdirSync(chatsOf('wsa')).length).toBeGreaterThan(0);
  });
});
