// Claude Code, the real CLI against the loopback model server (Anthropic Messages): two workspaces, a pre-assigned
// conversation created + resumed and SIGKILLed mid-turn, one with an Agent sub-agent, an idle TUI under tmux; then the
// library end to end on what it wrote.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAdapter, PurgeService, type HomeDiscoveryContext } from '../../src/index.js';
import { startFakeModelServer, type FakeModelServer } from '../../src/testing/index.js';
import { check } from './support/known-gaps.js';
import { realCli } from './support/real-clis.js';
import { expectEveryByteAccounted, expectRefusedPurgeChangesNothing, expectTurnCarries, purgeAndCheck, type Purged } from './support/purge-steps.js';
import { alive, runCli, sandboxPids, startCli, waitFor, type LiveCli } from './support/run-cli.js';
import { tearDownRealSuite } from './support/teardown.js';
import { makeSandbox, type RealSandbox } from './support/sandbox.js';
import { sleep, Sleepers } from './support/sleeper.js';
import { startTui, type TmuxTui } from './support/tmux.js';

const cli = realCli('claude');
const API_KEY = 'sk-ant-fake-0123456789abcdefghij';

let sb: RealSandbox;
let server: FakeModelServer;
let sleepers: Sleepers;
const ids = { a1: randomUUID(), a2: randomUUID(), b1: randomUUID(), tui: randomUUID() };
let live: LiveCli | undefined;
let tui: TmuxTui | undefined;
let crashedPid = 0;
let purgeA1: Purged | undefined;

const ctx = (workspace: string): HomeDiscoveryContext => ({ workspace, home: sb.home, env: sb.env });
const adapter = () => getAdapter('claude');
const service = () => new PurgeService();
const print = (cwd: string, ...args: string[]) =>
  runCli(cli.bin, ['-p', '--output-format', 'json', '--allowedTools=Bash', ...args], { cwd, env: sb.env, timeoutMs: 120_000 });
const sessionsDir = () => join(sb.home, '.claude', 'sessions');
const pidFiles = (): string[] => (existsSync(sessionsDir()) ? readdirSync(sessionsDir()) : []);
const ok = async (cwd: string, ...args: string[]): Promise<void> => {
  const r = await print(cwd, ...args);
  expect(r.code, r.stderr + r.stdout).toBe(0);
};

describe.sequential(`claude ${cli.version}`, () => {
  beforeAll(async () => {
    sb = makeSandbox('claude', { ANTHROPIC_API_KEY: API_KEY });
    sleepers = new Sleepers(sb.root);
    server = await startFakeModelServer({
      script: [
        { kind: 'shell', command: 'echo shell-ran-A1', when: 'RUN-SHELL' },
        { kind: 'spawn', prompt: 'CHILD-TASK please answer', when: 'SPAWN-CHILD' },
        { kind: 'shell', command: sleepers.command('a1'), when: 'KEEPALIVE-A1' },
      ],
    });
    sb.env['ANTHROPIC_BASE_URL'] = server.url;
    // The TUI's first-run dialogs (onboarding, the custom key, the workspace trust) answered ahead.
    const trusted = { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] };
    writeFileSync(
      join(sb.home, '.claude.json'),
      JSON.stringify({
        hasCompletedOnboarding: true,
        theme: 'dark',
        customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
        projects: { [sb.wsA]: trusted, [sb.wsB]: trusted },
      }),
    );
  });

  afterAll(async () => {
    await tearDownRealSuite({ live, tui, sleepers, server, sb });
  });

  it('creates (pre-assigned ids) and resumes conversations in two workspaces, one with a sub-agent', async () => {
    await ok(sb.wsA, '--session-id', ids.a1, 'PROMPT-A1 first turn RUN-SHELL');
    await ok(sb.wsA, '--resume', ids.a1, 'PROMPT-A1 second turn');
    await ok(sb.wsA, '--session-id', ids.a2, 'PROMPT-A2 SPAWN-CHILD');
    expect(server.requests.some((r) => r.userText.includes('CHILD-TASK'))).toBe(true);
    await ok(sb.wsB, '--session-id', ids.b1, 'PROMPT-B1 first turn');
    await ok(sb.wsB, '--resume', ids.b1, 'PROMPT-B1 second turn');
  });

  it('discover offers each workspace its own conversations', async () => {
    const a = await adapter().discover(ctx(sb.wsA));
    expect(a).toEqual(expect.arrayContaining([ids.a1, ids.a2]));
    expect(a).not.toContain(ids.b1);
    expect(await adapter().discover(ctx(sb.wsB))).toEqual([ids.b1]);
  });

  it('verify proves a conversation in its workspace only', async () => {
    expect(await adapter().verifyArtifact(ids.a1, ctx(sb.wsA))).toBe(true);
    expect(await adapter().verifyArtifact(ids.b1, ctx(sb.wsB))).toBe(true);
    expect(await adapter().verifyArtifact(ids.a1, ctx(sb.wsB))).toBe(false);
  });

  it('in use while a resumed turn runs a shell tool; a refused purge changes nothing', async () => {
    live = startCli(cli.bin, ['-p', '--allowedTools=Bash', '--resume', ids.a1, 'PROMPT-A1 third turn KEEPALIVE-A1'], { cwd: sb.wsA, env: sb.env });
    await sleepers.started('a1');
    expect(await adapter().conversationInUse(ids.a1, ctx(sb.wsA))).toBe(true);
    expect(await adapter().conversationInUse(ids.b1, ctx(sb.wsB))).toBe(false);
    await expectRefusedPurgeChangesNothing('claude', ids.a1, sb, sb.wsA, live);
  });

  it('SIGKILL mid-turn: the stale pid file does not make it read as in use; it still verifies', async () => {
    live!.signalGroup('SIGKILL');
    expect((await live!.exited).signal).toBe('SIGKILL');
    const pidFile = pidFiles().find((f) => f.endsWith('.json') && (JSON.parse(readFileSync(join(sessionsDir(), f), 'utf8')) as { sessionId?: string }).sessionId === ids.a1);
    expect(pidFile, 'the crashed run left its pid file').toBeDefined();
    crashedPid = Number.parseInt(pidFile!, 10);
    live = undefined;
    await sleepers.killAll();
    expect(await adapter().conversationInUse(ids.a1, ctx(sb.wsA))).toBe(false);
    expect(await adapter().verifyArtifact(ids.a1, ctx(sb.wsA))).toBe(true);
  });

  it('an idle TUI under tmux: its conversation is in use while it runs', async () => {
    tui = startTui(sb.root, sb.wsB, sb.env, [cli.bin, '--session-id', ids.tui]);
    await waitFor('the TUI prompt', () => (/for shortcuts|Try "|❯|>\s*$/m.test(tui!.capture()) ? true : undefined), 90_000).catch((e) => {
      throw new Error(`${String(e)}\n${tui!.capture()}`);
    });
    await sleep(1500);
    tui.send('-l', 'PROMPT-TUI hello from the TUI');
    const started = () => server.requests.some((r) => r.userText.includes('PROMPT-TUI'));
    for (let i = 0; i < 5 && !started(); i++) {
      await sleep(700);
      tui.send('Enter');
      await waitFor('the TUI turn', () => (started() ? true : undefined), 4000).catch(() => undefined);
    }
    if (!started()) throw new Error(`the TUI turn did not start\n${tui.capture()}`);
    await waitFor('the TUI transcript', async () => ((await adapter().verifyArtifact(ids.tui, ctx(sb.wsB))) ? true : undefined));
    expect(await adapter().conversationInUse(ids.tui, ctx(sb.wsB))).toBe(true);
    expect(await adapter().conversationInUse(ids.b1, ctx(sb.wsB))).toBe(false);
    tui.kill();
    tui = undefined;
    await waitFor('the TUI to exit', async () => ((await adapter().conversationInUse(ids.tui, ctx(sb.wsB))) ? undefined : true), 30_000);
  });

  check('claude: after /clear, a TUI started with --resume no longer holds the old conversation')(
    'claude: after /clear, a TUI started with --resume no longer holds the old conversation',
    async () => {
      tui = startTui(sb.root, sb.wsB, sb.env, [cli.bin, '--resume', ids.b1]);
      try {
        await waitFor('the resumed TUI', () => (/for shortcuts|❯/.test(tui!.capture()) ? true : undefined), 90_000);
        await sleep(1500);
        const pidFile = () => pidFiles().find((f) => f.endsWith('.json') && readFileSync(join(sessionsDir(), f), 'utf8').includes(ids.b1));
        const first = await waitFor('the TUI pid file naming the resumed id', () => pidFile());
        const fields = (f: string) => {
          const { pid, sessionId, kind, status } = JSON.parse(readFileSync(join(sessionsDir(), f), 'utf8')) as Record<string, unknown>;
          return JSON.stringify({ pid, sessionId, kind, status });
        };
        process.stdout.write(`[real] claude pid file before /clear: ${fields(first)}\n`);
        tui.send('-l', '/clear');
        for (let i = 0; i < 5 && pidFile() !== undefined; i++) {
          await sleep(700);
          tui.send('Enter');
          await waitFor('the pid file to move to a new id', () => (pidFile() === undefined ? true : undefined), 4000).catch(() => undefined);
        }
        expect(pidFile(), `the pid file still names the resumed id\n${tui.capture()}`).toBeUndefined();
        expect(await adapter().inUseHolders(ids.b1, ctx(sb.wsB))).toEqual([]);
        // The conversation the TUI moved to is held, through its pid file (the tmux server's command line names the old id).
        const moved = pidFiles()
          .filter((f) => /^[0-9]+\.json$/.test(f) && alive(Number.parseInt(f, 10)))
          .map((f) => (JSON.parse(readFileSync(join(sessionsDir(), f), 'utf8')) as { sessionId?: string }).sessionId)
          .find((sid) => sid !== undefined && sid !== ids.b1);
        expect(moved, 'the pid file names the new conversation').toBeDefined();
        process.stdout.write(`[real] claude pid file after /clear: ${existsSync(join(sessionsDir(), first)) ? fields(first) : 'gone'}\n`);
        expect((await adapter().inUseHolders(moved!, ctx(sb.wsB))).map((h) => h.signal)).toContain('pid-file');
      } finally {
        tui.kill();
        tui = undefined;
        await waitFor('the TUI to exit', () => (sandboxPids(sb.root).length === 0 ? true : undefined), 30_000).catch(() => undefined);
      }
    },
  );

  it('no CLI process is left running', async () => {
    await waitFor('every claude process to exit', () => (sandboxPids(sb.root).length === 0 ? true : undefined), 20_000).catch(() => undefined);
    expect(sandboxPids(sb.root)).toEqual([]);
  });

  it('purge removes the SIGKILLed conversation and reports what it left', async () => {
    purgeA1 = await purgeAndCheck('claude', ids.a1, sb, sb.wsA);
  });

  check('claude: no unaccounted byte of the purged id')('claude: no unaccounted byte of the purged id', () => {
    expectEveryByteAccounted('claude purge of a SIGKILLed conversation', sb, ids.a1, purgeA1!);
  });

  check("claude: purge removes the crashed run's .key and cc-socks files")("claude: purge removes the crashed run's .key and cc-socks files", () => {
    expect(pidFiles().filter((f) => f.startsWith(`${crashedPid}.`))).toEqual([]);
    expect(existsSync(join(sb.tmp, 'cc-socks', `${crashedPid}.sock`))).toBe(false);
  });

  it('the real CLI can no longer resume the purged conversation', async () => {
    const r = await print(sb.wsA, '--resume', ids.a1, 'PROMPT-A1 after purge');
    expect(r.code).not.toBe(0);
    expect(r.stderr + r.stdout).toContain(`No conversation found with session ID: ${ids.a1}`);
  });

  it('the sibling still resumes with its content', async () => {
    const before = server.requests.length;
    await ok(sb.wsB, '--resume', ids.b1, 'PROMPT-B1 after the purge');
    expectTurnCarries(server, before, 'PROMPT-B1 after the purge', ['PROMPT-B1 first turn', 'PROMPT-B1 second turn']);
  });

  it('purging a parent removes its sub-agent transcripts', async () => {
    const result = await service().purge('claude', ids.a2, { home: sb.home, workspace: sb.wsA, env: sb.env });
    expectEveryByteAccounted('claude purge of a conversation with a sub-agent', sb, ids.a2, result);
  });
});
