import type { fakeHerdrBase } from './fake-herdr-core-base.js';
import type { fakeHerdrModel } from './fake-herdr-core-model.js';
import type { fakeHerdrViews } from './fake-herdr-core-views.js';
import type { fakeHerdrArgs } from './fake-herdr-core-args.js';
import type { fakeHerdrProcs } from './fake-herdr-core-procs.js';
import type { FakeHerdrArgSpec, FakeHerdrParsedArgs } from './fake-herdr-core-args.js';
import type { FakeHerdrCommand, FakeHerdrCommandCtx } from './fake-herdr-command.js';
import type { FakeHerdrEnv, FakeHerdrOutcome, FakeHerdrSession, FakeHerdrState } from './fake-herdr-types.js';

export type { FakeHerdrCommand, FakeHerdrCommandCtx } from './fake-herdr-command.js';

/** The parts of the fake herdr's lib this part reaches (the others it never names). */
type Reach = {
  base: ReturnType<typeof fakeHerdrBase>;
  model: ReturnType<typeof fakeHerdrModel>;
  views: ReturnType<typeof fakeHerdrViews>;
  args: ReturnType<typeof fakeHerdrArgs>;
  procs: ReturnType<typeof fakeHerdrProcs>;
};

/**
 * Core part: `workspace …` and `pane …` commands. Self-contained, see {@link fakeHerdrBase}.
 * @public
 */
export function fakeHerdrPaneCommands(lib: Reach) {
  const READ = { values: ['--source', '--lines', '--format'], flags: ['--ansi', '--raw'] };
  const SOURCES = ['visible', 'recent', 'recent-unwrapped', 'detection'];
  const KEY = /^(enter|esc|escape|tab|backspace|space|delete|insert|home|end|pageup|pagedown|up|down|left|right|minus|shift\+tab|f([1-9]|1[0-2])|(ctrl|alt|shift)\+[a-z0-9]|[CM]-[a-z]|[ -~])$/i;

  /** The last `lines` rows of a buffer (herdr's default window is 80 rows). */
  function window(buffer: string, lines: number | undefined): string {
    const rows = buffer.split('\n');
    const trailing = rows[rows.length - 1] === '';
    if (trailing) rows.pop();
    const kept = rows.slice(Math.max(0, rows.length - (lines ?? 80)));
    return kept.join('\n') + (trailing && kept.length > 0 ? '\n' : '');
  }

  // Runs before any server is asked: read flags are parsed client-side.
  function checkRead(p: FakeHerdrParsedArgs, asIoError: boolean): FakeHerdrOutcome | undefined {
    const source = lib.args.last(p, '--source');
    const lines = lib.args.last(p, '--lines');
    const format = lib.args.last(p, '--format');
    const bad = (m: string): FakeHerdrOutcome => (asIoError ? lib.base.rustIoError(m) : lib.base.usage(m));
    if (source !== undefined && !SOURCES.includes(source)) return bad(`invalid read source: ${source}`);
    if (lines !== undefined && !/^\d+$/.test(lines)) return bad(`invalid --lines value: ${lines}`);
    if (format !== undefined && format !== 'text' && format !== 'ansi') return bad(`invalid read format: ${format}`);
    return undefined;
  }

  function readPane(buffer: string, p: FakeHerdrParsedArgs): FakeHerdrOutcome {
    const lines = lib.args.last(p, '--lines');
    return lib.base.text(window(buffer, lines === undefined ? undefined : Number(lines)));
  }

  function isValidKey(key: string): boolean {
    return KEY.test(key);
  }

  function paneNotFound(id: string, paneId: string): FakeHerdrOutcome {
    return lib.base.fail(id, 'pane_not_found', `pane ${paneId} not found`);
  }

  const workspace: Record<string, FakeHerdrCommand> = {
    list: {
      id: 'cli:workspace:list', usage: 'usage: herdr workspace list', spec: {}, minPos: 0, maxPos: 0,
      run: (c) => lib.base.ok('cli:workspace:list', { type: 'workspace_list', workspaces: c.sess.workspaces.map((w) => lib.views.workspaceInfo(c.sess, w)) }),
    },
    create: {
      id: 'cli:workspace:create', usage: 'usage: herdr workspace create [--cwd PATH] [--label TEXT] [--env KEY=VALUE]... [--focus|--no-focus]',
      spec: { values: ['--cwd', '--label', '--env'], flags: ['--focus', '--no-focus'] }, minPos: 0, maxPos: 0,
      run: (c, p) => {
        const env: Record<string, string> = {};
        for (const kv of p.values['--env'] ?? []) {
          const eq = kv.indexOf('=');
          const key = eq === -1 ? kv : kv.slice(0, eq);
          if (eq === -1 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return lib.base.fail('cli:workspace:create', 'invalid_env', `invalid environment variable: ${kv}`);
          env[key] = kv.slice(eq + 1);
        }
        const cwd = lib.args.last(p, '--cwd');
        const label = lib.args.last(p, '--label');
        const { ws, pane } = lib.model.addWorkspace(c.state, c.sess, {
          ...(cwd === undefined ? {} : { cwd }), ...(label === undefined ? {} : { label }), env, focus: lib.args.has(p, '--focus'),
        });
        return lib.base.ok('cli:workspace:create', {
          type: 'workspace_created', workspace: lib.views.workspaceInfo(c.sess, ws), tab: lib.views.tabInfo(c.sess, ws, 0), root_pane: lib.views.paneInfo(c.sess, { ws, pane }),
        });
      },
    },
    get: {
      id: 'cli:workspace:get', usage: 'usage: herdr workspace get <workspace_id>', spec: {}, minPos: 1, maxPos: 1,
      run: (c, p) => {
        const ws = c.sess.workspaces.find((w) => w.workspace_id === p.pos[0]);
        if (ws === undefined) return lib.base.fail('cli:workspace:get', 'workspace_not_found', `workspace ${p.pos[0]} not found`);
        return lib.base.ok('cli:workspace:get', { type: 'workspace_info', workspace: lib.views.workspaceInfo(c.sess, ws) });
      },
    },
    close: {
      id: 'cli:workspace:close', usage: 'usage: herdr workspace close <workspace_id>', spec: {}, minPos: 1, maxPos: 1,
      run: (c, p) => {
        const id = p.pos[0] as string;
        const ws = c.sess.workspaces.find((w) => w.workspace_id === id);
        if (ws === undefined) return lib.base.fail('cli:workspace:close', 'workspace_not_found', `workspace ${id} not found`);
        for (const pane of ws.panes) lib.procs.killPane(c, { ws, pane });
        lib.model.removeWorkspace(c.sess, id);
        return lib.base.ok('cli:workspace:close', { type: 'ok' });
      },
    },
  };

  const pane: Record<string, FakeHerdrCommand> = {
    list: {
      id: 'cli:pane:list', usage: 'usage: herdr pane list [--workspace ID]', spec: { values: ['--workspace'] }, minPos: 0, maxPos: 0,
      run: (c, p) => {
        const only = lib.args.last(p, '--workspace');
        if (only !== undefined && !c.sess.workspaces.some((w) => w.workspace_id === only)) {
          return lib.base.fail('cli:pane:list', 'workspace_not_found', `workspace ${only} not found`);
        }
        const panes = lib.model.panesOf(c.sess).filter((l) => only === undefined || l.ws.workspace_id === only);
        return lib.base.ok('cli:pane:list', { type: 'pane_list', panes: panes.map((l) => lib.views.paneInfo(c.sess, l)) });
      },
    },
    get: {
      id: 'cli:pane:get', usage: 'usage: herdr pane get <pane_id>', spec: {}, minPos: 1, maxPos: 1,
      run: (c, p) => {
        const loc = lib.model.locatePane(c.sess, p.pos[0] as string);
        return loc === undefined ? paneNotFound('cli:pane:get', p.pos[0] as string) : lib.base.ok('cli:pane:get', { type: 'pane_info', pane: lib.views.paneInfo(c.sess, loc) });
      },
    },
    close: {
      id: 'cli:pane:close', usage: 'usage: herdr pane close <pane_id>', spec: {}, minPos: 1, maxPos: 1,
      run: (c, p) => {
        const loc = lib.model.locatePane(c.sess, p.pos[0] as string);
        if (loc === undefined) return paneNotFound('cli:pane:close', p.pos[0] as string);
        lib.procs.killPane(c, loc);
        lib.model.removePane(c.sess, loc);
        return lib.base.ok('cli:pane:close', { type: 'ok' });
      },
    },
    read: {
      id: 'cli:pane:read', usage: 'usage: herdr pane read <pane_id> [--source SOURCE] [--lines N] [--format text|ansi]', spec: READ, minPos: 1, maxPos: 1,
      check: (p) => checkRead(p, false),
      run: (c, p) => {
        const loc = lib.model.locatePane(c.sess, p.pos[0] as string);
        return loc === undefined ? paneNotFound('cli:pane:read', p.pos[0] as string) : readPane(loc.pane.buffer, p);
      },
    },
    'send-text': {
      id: 'cli:request', usage: 'usage: herdr pane send-text <pane_id> <text>...', spec: { literal: Infinity }, minPos: 2, maxPos: Infinity,
      run: (c, p) => {
        const loc = lib.model.locatePane(c.sess, p.pos[0] as string);
        if (loc === undefined) return paneNotFound('cli:request', p.pos[0] as string);
        const text = p.pos.slice(1).join(' ');
        loc.pane.input.push({ kind: 'text', value: [text] });
        loc.pane.buffer += text;
        loc.pane.typed = (loc.pane.typed ?? '') + text;
        return lib.base.silent();
      },
    },
    'send-keys': {
      id: 'cli:request', usage: 'usage: herdr pane send-keys <pane_id> <key>...', spec: {}, minPos: 2, maxPos: Infinity,
      run: (c, p) => {
        const loc = lib.model.locatePane(c.sess, p.pos[0] as string);
        if (loc === undefined) return paneNotFound('cli:request', p.pos[0] as string);
        const bad = p.pos.slice(1).find((k) => !isValidKey(k));
        if (bad !== undefined) return lib.base.fail('cli:request', 'invalid_key', `unsupported key ${bad}`);
        loc.pane.input.push({ kind: 'keys', value: p.pos.slice(1) });
        lib.procs.typeKeys(c, loc, p.pos.slice(1));
        return lib.base.silent();
      },
    },
    run: {
      id: 'cli:request', usage: 'usage: herdr pane run <pane_id> <command>...', spec: { literal: Infinity }, minPos: 2, maxPos: Infinity,
      run: (c, p) => {
        const loc = lib.model.locatePane(c.sess, p.pos[0] as string);
        if (loc === undefined) return paneNotFound('cli:request', p.pos[0] as string);
        const command = p.pos.slice(1).join(' ');
        loc.pane.input.push({ kind: 'run', value: [command] });
        loc.pane.buffer += `${command}\n`;
        delete loc.pane.typed;
        lib.procs.submit(c, loc, command);
        return lib.base.silent();
      },
    },
    'process-info': {
      id: 'cli:pane:process_info', usage: 'usage: herdr pane process-info [--pane ID|--current]', spec: { values: ['--pane'], flags: ['--current'] }, minPos: 0, maxPos: 0,
      run: (c, p) => {
        const asked = lib.args.has(p, '--current') ? c.env.HERDR_PANE_ID : (lib.args.last(p, '--pane') ?? c.sess.focusedPane ?? undefined);
        if (asked === undefined) return lib.base.fail('cli:pane:process_info', 'no_active_pane', 'no active pane');
        const loc = lib.model.locatePane(c.sess, asked);
        if (loc === undefined) return lib.base.fail('cli:pane:process_info', 'pane_not_found', 'pane not found');
        return lib.base.ok('cli:pane:process_info', { type: 'pane_process_info', process_info: lib.views.processInfo(loc) });
      },
    },
  };

  return { workspace, pane, window, checkRead, readPane, isValidKey };
}
