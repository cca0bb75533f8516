// Codex, the real CLI against the loopback model server: two workspaces, a created + resumed conversation SIGKILLed
// mid-turn, one with a spawn_agent sub-agent, an idle TUI under tmux; then the library end to end on what it wrote.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAdapter, PurgeService, type HomeDiscoveryContext } from '../../src/index.js';
import { startFakeModelServer, type FakeModelServer } from '../../src/testing/index.js';
import { expectEveryByteAccounted, expectRefusedPurgeChangesNothing, expectTurnCarries, purgeAndCheck, type Purged } from './support/purge-steps.js';
import { accountHits } from './support/account.js';
import { killedPurgeThenRerun } from './support/killed-purge.js';
import { check } from './support/known-gaps.js';
import { realCli } from './support/real-clis.js';
import { alive, killSandboxProcesses, runCli, sandboxPids, startCli, waitFor, type LiveCli } from './support/run-cli.js';
import { makeSandbox, type RealSandbox } from './support/sandbox.js';
import { startTui, type TmuxTui } from './support/tmux.js';
import { filesContaining } from './support/tree.js';

const cli = realCli('codex');
const ID_LINE = /session id: ([0-9a-f-]{36})/;
const KEEP_ALIVE = (marker: string) => `echo $$ > ${marker}; exec python3 -c "import time; time.sleep(600)"`;

let sb: RealSandbox;
let server: FakeModelServer;
let codexHome: string;
const ids = { a1: '', a2: '', child: '', b1: '', tui: '' };
let live: LiveCli | undefined;
let tui: TmuxTui | undefined;
const sleepers: number[] = [];
let purgeA1: Purged | undefined;

const ctx = (workspace: string): HomeDiscoveryContext => ({ workspace, home: sb.home, env: sb.env });
const adapter = () => getAdapter('codex');
const exec = (cwd: string, ...args: string[]) => runCli(cli.bin, ['exec', '--skip-git-repo-check', ...args], { cwd, env: sb.env });
const created = async (cwd: string, prompt: string): Promise<string> => {
  const run = await exec(cwd, prompt);
  expect(run.code, run.stderr).toBe(0);
  const id = ID_LINE.exec(run.stderr + run.stdout)?.[1];
  expect(id).toBeDefined();
  return id!;
};
const sleeperFile = (tag: string) => join(sb.root, `sleeper-${tag}.pid`);
const waitSleeper = async (tag: string): Promise<number> => {
  const pid = await waitFor(`the ${tag} shell tool`, () => {
    const f = sleeperFile(tag);
    const text = existsSync(f) ? readFileSync(f, 'utf8').trim() : '';
    return text.length > 0 ? Number.parseInt(text, 10) : undefined;
  });
  sleepers.push(pid);
  return pid;
};
const service = () => new PurgeService();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.sequential(`codex ${cli.version}`, () => {
  beforeAll(async () => {
    sb = makeSandbox('codex', { FAKE_KEY: 'fake-key' });
    server = await startFakeModelServer({
      script: [
        { kind: 'shell', command: 'echo shell-ran-A1', when: 'RUN-SHELL' },
        { kind: 'spawn', prompt: 'CHILD-TASK please answer', when: 'SPAWN-CHILD' },
        { kind: 'shell', command: KEEP_ALIVE(sleeperFile('a1')), when: 'KEEPALIVE-A1' },
      ],
    });
    codexHome = join(sb.home, '.codex');
    sb.env['CODEX_HOME'] = codexHome;
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        'model = "fake-model"',
        'model_provider = "fake"',
        'approval_policy = "never"',
        'sandbox_mode = "danger-full-access"',
        'check_for_update_on_startup = false',
        '[analytics]',
        'enabled = false',
        '[model_providers.fake]',
        'name = "fake"',
        `base_url = "${server.url}/v1"`,
        'wire_api = "responses"',
        'env_key = "FAKE_KEY"',
        `[projects."${sb.wsA}"]`,
        'trust_level = "trusted"',
        `[projects."${sb.wsB}"]`,
        'trust_level = "trusted"',
        '',
      ].join('\n'),
    );
  });

  afterAll(async () => {
    live?.signalGroup('SIGKILL');
    tui?.kill();
    for (const pid of sleepers) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await server?.close();
    if (sb !== undefined) killSandboxProcesses(sb.root);
    if (process.env['MAM_REAL_KEEP'] === undefined) sb?.dispose();
  });

  it('creates and resumes conversations in two workspaces, one with a sub-agent', async () => {
    ids.a1 = await created(sb.wsA, 'PROMPT-A1 first turn RUN-SHELL');
    const resumed = await exec(sb.wsA, 'resume', ids.a1, 'PROMPT-A1 second turn');
    expect(resumed.code, resumed.stderr).toBe(0);
    ids.a2 = await created(sb.wsA, 'PROMPT-A2 SPAWN-CHILD');
    ids.b1 = await created(sb.wsB, 'PROMPT-B1 first turn');
    const resumedB = await exec(sb.wsB, 'resume', ids.b1, 'PROMPT-B1 second turn');
    expect(resumedB.code, resumedB.stderr).toBe(0);
    expect(new Set(Object.values(ids).filter(Boolean)).size).toBe(3);
    const db = new Database(join(codexHome, 'state_5.sqlite'), { readonly: true });
    const child = db.prepare("select id from threads where source like '%' || ? || '%'").all(ids.a2) as { id: string }[];
    db.close();
    expect(child).toHaveLength(1);
    ids.child = child[0]!.id;
  });

  it('discover offers each workspace its own conversations, newest first', async () => {
    const a = await adapter().discover(ctx(sb.wsA));
    const b = await adapter().discover(ctx(sb.wsB));
    expect(a).toEqual(expect.arrayContaining([ids.a1, ids.a2]));
    expect(a).not.toContain(ids.b1);
    expect(b).toEqual([ids.b1]);
  });

  check('codex: discover excludes sub-agent threads')('codex: discover excludes sub-agent threads', async () => {
    expect(await adapter().discover(ctx(sb.wsA))).not.toContain(ids.child);
  });

  check('codex: discover finds the rollouts of a moved CODEX_HOME')('codex: discover finds the rollouts of a moved CODEX_HOME', async () => {
    // Moved for real (no CLI runs now), then put back: the rows' absolute rollout_path now names a missing file.
    const moved = join(sb.root, 'moved-codex-home');
    renameSync(codexHome, moved);
    try {
      const found = await adapter().discover({ ...ctx(sb.wsA), env: { ...sb.env, CODEX_HOME: moved } });
      expect(found).toEqual(expect.arrayContaining([ids.a1, ids.a2]));
    } finally {
      renameSync(moved, codexHome);
    }
  });

  it('verify proves a conversation in its workspace only', async () => {
    expect(await adapter().verifyArtifact(ids.a1, ctx(sb.wsA))).toBe(true);
    expect(await adapter().verifyArtifact(ids.b1, ctx(sb.wsB))).toBe(true);
    expect(await adapter().verifyArtifact(ids.a1, ctx(sb.wsB))).toBe(false);
  });

  it('in use while a resumed turn runs a shell tool; a refused purge changes nothing', async () => {
    live = startCli(cli.bin, ['exec', '--skip-git-repo-check', 'resume', ids.a1, `PROMPT-A1 third turn KEEPALIVE-A1`], { cwd: sb.wsA, env: sb.env });
    await waitSleeper('a1');
    expect(await adapter().conversationInUse(ids.a1, ctx(sb.wsA))).toBe(true);
    expect(await adapter().conversationInUse(ids.b1, ctx(sb.wsB))).toBe(false);
    // Stopped, the CLI still holds its lock and files but cannot write: any change to the tree is the purge's.
    await expectRefusedPurgeChangesNothing('codex', ids.a1, sb, sb.wsA, live);
  });

  it('SIGKILL mid-turn: the conversation is no longer in use, and still verifies', async () => {
    live!.signalGroup('SIGKILL');
    const run = await live!.exited;
    expect(run.signal).toBe('SIGKILL');
    live = undefined;
    for (const pid of sleepers) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await waitFor('the shell tool to die', () => sleepers.every((p) => !alive(p)) || undefined);
    expect(await adapter().conversationInUse(ids.a1, ctx(sb.wsA))).toBe(false);
    expect(await adapter().verifyArtifact(ids.a1, ctx(sb.wsA))).toBe(true);
  });

  it('an idle TUI under tmux: its conversation is in use, the workspace sibling is not', async () => {
    tui = startTui(sb.root, sb.wsB, sb.env, [cli.bin, '--no-alt-screen', '--no-daemon']);
    await waitFor('the TUI prompt', () => (tui!.capture().includes('for shortcuts') ? true : undefined), 60_000).catch((e) => {
      throw new Error(`${String(e)}\n${tui!.capture()}`);
    });
    await sleep(1000);
    tui.send('-l', 'PROMPT-TUI hello from the TUI');
    // Keys sent with the text arrive as one paste, where Enter is a newline: press it apart, again if the turn did not start.
    const started = () => server.requests.some((r) => r.userText.includes('PROMPT-TUI'));
    for (let i = 0; i < 5 && !started(); i++) {
      await sleep(700);
      tui.send('Enter');
      await waitFor('the TUI turn', () => (started() ? true : undefined), 3000).catch(() => undefined);
    }
    if (!started()) throw new Error(`the TUI turn did not start\n${tui.capture()}`);
    const found = await waitFor('the TUI conversation', async () => (await adapter().discover(ctx(sb.wsB))).find((id) => id !== ids.b1));
    ids.tui = found;
    await waitFor('the TUI reply', () => (tui!.capture().includes('ok') ? true : undefined));
    expect(await adapter().conversationInUse(ids.tui, ctx(sb.wsB))).toBe(true);
    expect(await adapter().conversationInUse(ids.b1, ctx(sb.wsB))).toBe(false);
    tui.kill();
    tui = undefined;
    await waitFor('the TUI to exit', async () => ((await adapter().conversationInUse(ids.tui, ctx(sb.wsB))) ? undefined : true), 30_000);
  });

  it('purge removes the SIGKILLed conversation and reports what it left', async () => {
    purgeA1 = await purgeAndCheck('codex', ids.a1, sb, sb.wsA);
  });

  check('codex: no unaccounted byte of the purged id')('codex: no unaccounted byte of the purged id', () => {
    expectEveryByteAccounted('codex purge of a SIGKILLed conversation', sb, ids.a1, purgeA1!);
  });

  it('no CLI process is left running (the TUI ran with --no-daemon: Codex 0.171 otherwise keeps a shared app-server daemon)', () => {
    expect(sandboxPids(sb.root)).toEqual([]);
  });

  it('the TUI conversation wrote the shared TUI files (history.jsonl) naming its id', () => {
    expect(filesContaining(sb.root, ids.tui)).toContain(join(codexHome, 'history.jsonl'));
  });

  it('purging the TUI conversation names the shared TUI files that keep its id as mentions', async () => {
    const result = await service().purge('codex', ids.tui, { home: sb.home, workspace: sb.wsB, env: sb.env });
    expect(result.kind).toBe('purged');
    if (result.kind !== 'purged') return;
    expect(accountHits(filesContaining(sb.root, ids.tui).filter((p) => p.endsWith('.jsonl')), result).mention.length).toBeGreaterThan(0);
    expectEveryByteAccounted('codex purge of the TUI conversation', sb, ids.tui, result);
  });

  it('the real CLI can no longer resume the purged conversation', async () => {
    const run = await exec(sb.wsA, 'resume', ids.a1, 'PROMPT-A1 after purge');
    expect(run.code).not.toBe(0);
    expect(run.stderr + run.stdout).toMatch(/no rollout found/i);
  });

  it('the sibling still resumes with its content', async () => {
    const before = server.requests.length;
    const run = await exec(sb.wsB, 'resume', ids.b1, 'PROMPT-B1 after the purge');
    expect(run.code, run.stderr).toBe(0);
    expectTurnCarries(server, before, 'PROMPT-B1 after the purge', ['PROMPT-B1 first turn', 'PROMPT-B1 second turn']);
  });

  check('codex: purging a parent removes its sub-agent threads')('codex: purging a parent removes its sub-agent threads', async () => {
    const result = await service().purge('codex', ids.a2, { home: sb.home, workspace: sb.wsA, env: sb.env });
    expect(result.kind).toBe('purged');
    expect(await adapter().hasArtifacts(ids.child, ctx(sb.wsA))).toBe(false);
    expectEveryByteAccounted('codex purge of a parent (its id)', sb, ids.a2, result);
    expectEveryByteAccounted('codex purge of a parent (its sub-agent)', sb, ids.child, result);
  });

  it('a mam purge SIGKILLed at a seeded random point, then rerun: no byte of the id but in mentions', async () => {
    await killedPurgeThenRerun('codex', ids.b1, sb, sb.wsB);
    expect(await adapter().hasArtifacts(ids.b1, ctx(sb.wsB))).toBe(false);
  });
});
