import type { fakeHerdrBase } from './fake-herdr-core-base.js';
import type { fakeHerdrModel } from './fake-herdr-core-model.js';
import type { fakeHerdrViews } from './fake-herdr-core-views.js';
import type { fakeHerdrArgs } from './fake-herdr-core-args.js';
import type { fakeHerdrPaneCommands } from './fake-herdr-core-panes.js';
import type { fakeHerdrProcs } from './fake-herdr-core-procs.js';
import type { fakeHerdrWaits } from './fake-herdr-core-waits.js';
import type { FakeHerdrParsedArgs } from './fake-herdr-core-args.js';
import type { FakeHerdrCommand, FakeHerdrCommandCtx } from './fake-herdr-command.js';
import type { FakeHerdrOutcome } from './fake-herdr-types.js';

/** The parts of the fake herdr's lib this part reaches (the others it never names). */
type Reach = {
  base: ReturnType<typeof fakeHerdrBase>;
  model: ReturnType<typeof fakeHerdrModel>;
  views: ReturnType<typeof fakeHerdrViews>;
  args: ReturnType<typeof fakeHerdrArgs>;
  panes: ReturnType<typeof fakeHerdrPaneCommands>;
  procs: ReturnType<typeof fakeHerdrProcs>;
  waits: ReturnType<typeof fakeHerdrWaits>;
};

/**
 * Core part: `agent …` commands. Self-contained, see {@link fakeHerdrBase}.
 * @public
 */
export function fakeHerdrAgentCommands(lib: Reach) {
  const READ = { values: ['--source', '--lines', '--format'], flags: ['--ansi'] };
  const DEFAULT_UNTIL = ['idle', 'done', 'blocked'];

  function notFound(id: string, target: string): FakeHerdrOutcome {
    return lib.base.fail(id, 'agent_not_found', `agent target ${target} not found`);
  }

  // Client-side: each --until is one status (a comma list is a usage error), --timeout is a u64 of ms.
  function checkUntilTimeout(p: FakeHerdrParsedArgs): FakeHerdrOutcome | undefined {
    const bad = (p.values['--until'] ?? []).find((s) => !lib.base.isStatus(s));
    if (bad !== undefined) return lib.base.usage(`invalid --until value: ${bad}`);
    if (lib.args.u64(p, '--timeout') === null) return lib.base.usage(`invalid --timeout value: ${lib.args.last(p, '--timeout') ?? ''}`);
    return undefined;
  }

  function untilOf(p: FakeHerdrParsedArgs): string[] {
    return p.values['--until'] ?? DEFAULT_UNTIL;
  }

  function start(c: FakeHerdrCommandCtx, p: FakeHerdrParsedArgs): FakeHerdrOutcome {
    const id = 'cli:agent:start';
    const name = p.pos[0] as string;
    const kind = lib.base.canonicalKind(lib.args.last(p, '--kind') as string) as string;
    const paneId = lib.args.last(p, '--pane') as string;
    const args = p.rest ?? [];
    // herdr's server-side order: name, kind, argument bytes, name taken, pane missing, pane busy, timeout.
    if (!lib.base.isValidName(name)) return lib.base.fail(id, 'invalid_agent_name', lib.base.NAME_MESSAGE);
    if (args.some((a) => /[\u0000-\u001f\u007f]/.test(a))) return lib.base.fail(id, 'invalid_agent_argument', 'agent arguments must not contain control characters');
    const taken = lib.model.findAgent(c.sess, name);
    if (taken !== undefined && taken.agent.name === name) {
      const { ws, pane, agent } = taken;
      const status = agent.status.charAt(0).toUpperCase() + agent.status.slice(1);
      return lib.base.fail(id, 'agent_name_taken',
        `agent name ${name} is already used; candidates: terminal_id=${pane.terminal_id} pane_id=${pane.pane_id} workspace_id=${ws.workspace_id} tab_id=${pane.tab_id} cwd=${pane.cwd} status=${status}`);
    }
    const loc = lib.model.locatePane(c.sess, paneId);
    if (loc === undefined) return lib.base.fail(id, 'agent_pane_not_found', `agent target pane ${paneId} not found`);
    if (loc.pane.agent !== null) return lib.base.fail(id, 'agent_pane_busy', `agent target pane ${paneId} is not an available shell`);
    const timeout = lib.args.u64(p, '--timeout') ?? 30000;
    if (!(timeout > 3000 && timeout <= 300000)) return lib.base.fail(id, 'invalid_agent_timeout', 'agent start timeout must be greater than 3000ms and at most 300000ms');
    const spawned = lib.procs.start(c, loc, { name, kind, args, timeoutMs: timeout });
    if (spawned !== undefined) return spawned;
    const argv = [lib.base.kindExe(kind), ...args];
    const agent = lib.model.launchAgent(c.state, c.sess, loc.pane, { name, kind, argv, status: 'idle', interactiveReady: true });
    loc.pane.buffer += `${argv.join(' ')}\n`;
    return lib.base.ok(id, { type: 'agent_started', agent: lib.views.agentInfo(c.sess, { ...loc, agent }), argv });
  }

  const agent: Record<string, FakeHerdrCommand> = {
    list: {
      id: 'cli:agent:list', usage: 'usage: herdr agent list', spec: {}, minPos: 0, maxPos: 0,
      run: (c) => {
        const agents = lib.model.panesOf(c.sess).flatMap((l) => (l.pane.agent === null ? [] : [lib.views.agentInfo(c.sess, { ...l, agent: l.pane.agent })]));
        return lib.base.ok('cli:agent:list', { type: 'agent_list', agents });
      },
    },
    get: {
      id: 'cli:agent:get', usage: 'usage: herdr agent get <target>', spec: {}, minPos: 1, maxPos: 1,
      run: (c, p) => {
        const target = p.pos[0] as string;
        const before = lib.model.findAgent(c.sess, target);
        if (before === undefined) return notFound('cli:agent:get', target);
        lib.model.consumeQueue(c.sess, before);
        const loc = lib.model.findAgent(c.sess, target);
        return loc === undefined ? notFound('cli:agent:get', target) : lib.base.ok('cli:agent:get', { type: 'agent_info', agent: lib.views.agentInfo(c.sess, loc) });
      },
    },
    read: {
      id: 'cli:agent:read', usage: 'usage: herdr agent read <target> [--source SOURCE] [--lines N] [--format text|ansi]', spec: READ, minPos: 1, maxPos: 1,
      check: (p) => lib.panes.checkRead(p, true),
      run: (c, p) => {
        const loc = lib.model.findAgent(c.sess, p.pos[0] as string);
        return loc === undefined ? notFound('cli:agent:read', p.pos[0] as string) : lib.panes.readPane(loc.pane.buffer, p);
      },
    },
    'send-keys': {
      id: 'cli:agent:send-keys', usage: 'usage: herdr agent send-keys <target> <key>...', spec: {}, minPos: 2, maxPos: Infinity,
      run: (c, p) => {
        const loc = lib.model.findAgent(c.sess, p.pos[0] as string);
        if (loc === undefined) return notFound('cli:agent:send-keys', p.pos[0] as string);
        const keys = p.pos.slice(1);
        // All keys are validated before any is sent.
        const bad = keys.find((k) => !lib.panes.isValidKey(k));
        if (bad !== undefined) return lib.base.fail('cli:agent:send-keys', 'invalid_key', `unsupported key ${bad}`);
        loc.pane.input.push({ kind: 'keys', value: keys });
        lib.procs.typeKeys(c, loc, keys);
        return lib.base.ok('cli:agent:send-keys', { type: 'ok' });
      },
    },
    prompt: {
      id: 'cli:agent:prompt', usage: 'usage: herdr agent prompt <target> <text> [--wait] [--until STATUS]... [--timeout MS]',
      spec: { values: ['--until', '--timeout'], flags: ['--wait'], literal: 2 }, minPos: 2, maxPos: 2,
      check: (p) => {
        const waitOnly = p.values['--until'] !== undefined || p.values['--timeout'] !== undefined;
        if (waitOnly && !lib.args.has(p, '--wait')) return lib.base.usage('--until and --timeout require --wait');
        return checkUntilTimeout(p);
      },
      run: (c, p) => {
        const target = p.pos[0] as string;
        const text = p.pos[1] as string;
        const loc = lib.model.findAgent(c.sess, target);
        if (loc === undefined) return notFound('cli:agent:prompt', target);
        if (text.trim() === '') return lib.base.fail('cli:agent:prompt', 'empty_agent_prompt', 'agent prompt text must not be empty');
        const fromWorking = loc.agent.status === 'working';
        const startSeq = loc.agent.state_change_seq;
        loc.pane.input.push({ kind: 'prompt', value: [text] });
        loc.pane.buffer += `${text}\n`;
        loc.agent.queue.push(...(loc.agent.onPrompt ?? ['working', 'idle']));
        // The text is submitted with Enter: `/exit` ends the agent.
        lib.procs.submit(c, loc, text);
        if (!lib.args.has(p, '--wait')) return lib.base.ok('cli:agent:prompt', { type: 'agent_prompted', agent: lib.views.agentInfo(c.sess, loc) });
        const timeoutMs = lib.args.u64(p, '--timeout') ?? null;
        return lib.waits.begin(c, { kind: 'prompt', id: 'cli:agent:prompt', target, terminalId: loc.pane.terminal_id, until: untilOf(p), timeoutMs, startSeq, fromWorking });
      },
    },
    wait: {
      id: 'cli:agent:wait', usage: 'usage: herdr agent wait <target> [--until STATUS]... [--timeout MS]',
      spec: { values: ['--until', '--timeout'] }, minPos: 1, maxPos: 1,
      check: checkUntilTimeout,
      run: (c, p) => {
        const target = p.pos[0] as string;
        const loc = lib.model.findAgent(c.sess, target);
        if (loc === undefined) return notFound('cli:agent:wait', target);
        const timeoutMs = lib.args.u64(p, '--timeout') ?? null;
        return lib.waits.begin(c, {
          kind: 'wait', id: 'cli:agent:wait', target, terminalId: loc.pane.terminal_id, until: untilOf(p), timeoutMs, startSeq: loc.agent.state_change_seq, fromWorking: false,
        });
      },
    },
    start: {
      id: 'cli:agent:start', usage: 'usage: herdr agent start <name> --kind KIND --pane PANE_ID [--timeout MS] [-- ARGS...]',
      spec: { values: ['--kind', '--pane', '--timeout'] }, minPos: 1, maxPos: 1,
      check: (p) => {
        const kind = lib.args.last(p, '--kind');
        if (kind === undefined) return lib.base.usage('missing required --kind');
        if (lib.args.last(p, '--pane') === undefined) return lib.base.usage('missing required --pane');
        if (lib.base.canonicalKind(kind) === undefined) return lib.base.usage(`unsupported interactive agent kind: ${kind}`);
        if (lib.args.u64(p, '--timeout') === null) return lib.base.usage(`invalid --timeout value: ${lib.args.last(p, '--timeout') ?? ''}`);
        return undefined;
      },
      run: start,
    },
  };

  return { agent };
}
