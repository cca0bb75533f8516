// Gemini CLI, the real CLI against the loopback model server (Gemini API): two conversations in one workspace and one in
// another of the same basename (`wsA`, `other/wsA`: project short names `wsa`, `wsa-1`), pre-assigned ids created and
// resumed; a live turn running a shell tool on one id, then SIGKILLed; an idle TUI under tmux; a purge from inside a tool
// shell; then the library end to end on what it wrote.
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
import { alive, runCli, sandboxPids, startCli, waitFor, type LiveCli } from './support/run-cli.js';
import { tearDownRealSuite } from './support/teardown.js';
import { makeSandbox, type RealSandbox } from './support/sandbox.js';
import { sleep, Sleepers } from './support/sleeper.js';
import { startTui, type TmuxTui } from './support/tmux.js';

const cli = realCli('gemini');
const MODEL = 'gemini-2.5-flash';

let sb: RealSandbox;
let server: FakeModelServer;
let sleepers: Sleepers;
let wsA: string;
let otherA: string;
const ids = { a1: randomUUID(), a2: randomUUID(), b1: randomUUID(), tui: randomUUID(), tui2: randomUUID(), probe: '' };
const repo = fileURLToPath(new URL('../..', import.meta.url));
const probeOut = () => join(sb.root, 'probe.json');
let live: LiveCli | undefined;
let tui: TmuxTui | undefined;
let purgeA1: Purged | undefined;
let a2Created = 0;

const ctx = (workspace: string): HomeDiscoveryContext => ({ workspace, home: sb.home, env: sb.env });
const adapter = () => getAdapter('gemini');
const geminiArgs = (...args: string[]) => ['--skip-trust', '--yolo', '-m', MODEL, ...args];
const headless = (cwd: string, ...args: string[]) => runCli(cli.bin, geminiArgs(...args), { cwd, env: sb.env, timeoutMs: 120_000 });
const ok = async (cwd: string, ...args: string[]): Promise<void> => {
  const r = await headless(cwd, ...args);
  expect(r.code, r.stderr + r.stdout).toBe(0);
};
const chatsOf = (short: string): string => join(sb.home, '.gemini', 'tmp', short, 'chats');
const logsOf = (short: string): string => join(sb.home, '.gemini', 'tmp', short, 'logs.json');
// The chat files named after the id (the name holds its first 8 hex characters).
const chatFilesOf = (short: string, id: string): string[] => readdirSync(chatsOf(short)).filter((f) => f.endsWith(`-${id.slice(0, 8)}.jsonl`));

// A resume in a later clock minute than its chat file's adds a second file holding only the session context, and the
// next gemini started in that project deletes the conversation — every file of it (Gemini CLI 0.61): start the
// create-and-resume steps early in a minute, so that they share it.
const freshMinute = async (): Promise<void> => {
  const second = new Date().getSeconds();
  if (second > 20) await sleep((60 - second) * 1000 + 200);
};

// One prompt in a TUI under tmux in `otherA` with a pre-assigned id; `whileRunning` runs once its chat file names the id;
// then `/quit`, and every process of the sandbox gone.
const tuiTurn = async (id: string, prompt: string, whileRunning: () => Promise<void>): Promise<void> => {
  tui = startTui(sb.root, otherA, sb.env, [cli.bin, '--skip-trust', '-m', MODEL, '--session-id', id]);
  await waitFor('the TUI prompt', () => (tui!.capture().includes('Type your message') ? true : undefined), 90_000).catch((e) => {
    throw new Error(`${String(e)}\n${tui!.capture()}`);
  });
  await sleep(1000);
  tui.send('-l', prompt);
  const started = () => server.requests.some((r) => r.userText.includes(prompt));
  for (let i = 0; i < 5 && !started(); i++) {
    await sleep(700);
    tui.send('Enter');
    await waitFor('the TUI turn', () => (started() ? true : undefined), 4000).catch(() => undefined);
  }
  if (!started()) throw new Error(`the TUI turn did not start\n${tui.capture()}`);
  await waitFor('the TUI transcript', async () => ((await adapter().verifyArtifact(id, ctx(otherA))) ? true : undefined));
  await whileRunning();
  tui.send('-l', '/quit');
  await sleep(500);
  tui.send('Enter');
  const quit = await waitFor('the TUI to quit', () => (sandboxPids(sb.root).length === 0 ? true : undefined), 30_000).then(() => true, () => false);
  if (!quit) tui.kill();
  tui = undefined;
  await waitFor('every gemini process to exit', () => (sandboxPids(sb.root).length === 0 ? true : undefined), 30_000);
};

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
    await tearDownRealSuite({ live, tui, sleepers, server, sb });
  });

  it('creates (pre-assigned ids) and resumes conversations in two workspaces of the same basename', async () => {
    await freshMinute();
    await ok(wsA, '--session-id', ids.a1, '-p', 'PROMPT-A1 first turn RUN-SHELL');
    expect(server.requests.some((r) => r.reply === 'after-tool')).toBe(true);
    await ok(wsA, '--resume', ids.a1, '-p', 'PROMPT-A1 second turn');
    await ok(wsA, '--session-id', ids.a2, '-p', 'PROMPT-A2 first turn');
    a2Created = Date.now();
    await freshMinute();
    await ok(otherA, '--session-id', ids.b1, '-p', 'PROMPT-B1 first turn');
    await ok(otherA, '--resume', ids.b1, '-p', 'PROMPT-B1 second turn');
    for (const [short, id] of [['wsa', ids.a1], ['wsa', ids.a2], ['wsa-1', ids.b1]] as const) expect(chatFilesOf(short, id), id).toHaveLength(1);
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
    live!.signalGroup('SIGKILL');
    expect((await live!.exited).signal).toBe('SIGKILL');
    live = undefined;
    const toolPid = Number.parseInt(readFileSync(sleepers.file('a1'), 'utf8').trim(), 10);
    // Gemini CLI 0.61 leaves the tool's process group running when it dies.
    expect(alive(toolPid)).toBe(true);
    killToolGroup(toolPid);
    await sleepers.killAll();
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

  it("the CLI's own --list-sessions lists the sibling, not the purged conversation", async () => {
    const r = await runCli(cli.bin, ['--skip-trust', '--list-sessions'], { cwd: wsA, env: sb.env, timeoutMs: 120_000 });
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toContain(`[${ids.a2}]`);
    expect(r.stdout + r.stderr).not.toContain(ids.a1);
  });

  it('an idle TUI under tmux: its conversation is in use (and, through its project, the sibling), the other project is not', async () => {
    await tuiTurn(ids.tui, 'PROMPT-TUI hello from the TUI', async () => {
      expect(await adapter().conversationInUse(ids.tui, ctx(otherA))).toBe(true);
      expect(await adapter().conversationInUse(ids.b1, ctx(otherA))).toBe(true);
      expect(await adapter().conversationInUse(ids.a2, ctx(wsA))).toBe(false);
      expect(readFileSync(logsOf('wsa-1'), 'utf8')).toContain(ids.tui);
    });
    expect(await adapter().conversationInUse(ids.tui, ctx(otherA))).toBe(false);
  });

  it("purging the TUI conversation rewrites the project's logs.json without its prompts; no byte of it is left", async () => {
    const result = await new PurgeService().purge('gemini', ids.tui, { home: sb.home, workspace: otherA, env: sb.env });
    expectEveryByteAccounted('gemini purge of a TUI conversation', sb, ids.tui, result);
    expect(readFileSync(logsOf('wsa-1'), 'utf8')).not.toContain('PROMPT-TUI');
    expect(await adapter().discover(ctx(otherA))).toEqual([ids.b1]);
  });

  it("after the CLI's own --delete-session (which leaves the prompts in logs.json), a purge removes what it left", async () => {
    await tuiTurn(ids.tui2, 'PROMPT-TUI2 a second TUI conversation', async () => undefined);
    const list = await runCli(cli.bin, ['--skip-trust', '--list-sessions'], { cwd: otherA, env: sb.env, timeoutMs: 120_000 });
    expect(list.code, list.stderr + list.stdout).toBe(0);
    const index = new RegExp(`^\\s*(\\d+)\\. .*\\[${ids.tui2}\\]`, 'm').exec(list.stdout)?.[1];
    expect(index, list.stdout).toBeDefined();
    const del = await runCli(cli.bin, ['--skip-trust', '--delete-session', index!], { cwd: otherA, env: sb.env, timeoutMs: 120_000 });
    expect(del.code, del.stderr + del.stdout).toBe(0);
    expect(chatFilesOf('wsa-1', ids.tui2)).toEqual([]);
    expect(readFileSync(logsOf('wsa-1'), 'utf8')).toContain('PROMPT-TUI2');
    const result = await new PurgeService().purge('gemini', ids.tui2, { home: sb.home, workspace: otherA, env: sb.env });
    expectEveryByteAccounted('gemini purge after --delete-session', sb, ids.tui2, result);
    expect(readFileSync(logsOf('wsa-1'), 'utf8')).not.toContain('PROMPT-TUI2');
    expect(await adapter().discover(ctx(otherA))).toEqual([ids.b1]);
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

  it('the siblings still resume with their content (same project, and the colliding basename)', async () => {
    // A resume in another clock minute than the file's adds a second chat file: wait for one (usually it has passed).
    await waitFor('a new clock minute', () => (Math.floor(Date.now() / 60_000) > Math.floor(a2Created / 60_000) ? true : undefined), 65_000);
    let before = server.requests.length;
    await ok(wsA, '--resume', ids.a2, '-p', 'PROMPT-A2 after the purge');
    expect(chatFilesOf('wsa', ids.a2)).toHaveLength(2);
    expectTurnCarries(server, before, 'PROMPT-A2 after the purge', ['PROMPT-A2 first turn']);
    before = server.requests.length;
    await ok(otherA, '--resume', ids.b1, '-p', 'PROMPT-B1 after the purge');
    expectTurnCarries(server, before, 'PROMPT-B1 after the purge', ['PROMPT-B1 first turn', 'PROMPT-B1 second turn']);
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

  it('purging a conversation of two chat files (a resume in another minute) removes both', async () => {
    const files = chatFilesOf('wsa', ids.a2);
    expect(files).toHaveLength(2);
    const result = await purgeAndCheck('gemini', ids.a2, sb, wsA);
    expectEveryByteAccounted('gemini purge of a conversation of two chat files', sb, ids.a2, result);
    expect(chatFilesOf('wsa', ids.a2)).toEqual([]);
    expect(await adapter().discover(ctx(wsA))).toEqual([]);
  });
});
