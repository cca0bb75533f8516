import type { FakeAgentLib } from './fake-agent-core.js';
import type * as NodeNet from 'node:net';
import type { FakeAgentConfig, FakeAgentExit, FakeAgentMods, FakeAgentRun, FakeAgentStarted } from './fake-agent-types.js';

/**
 * The Node modules the script's bootstrap loads for {@link fakeAgentMain} (a plain `import()` there); the process-level
 * effects (environment, clock, pid, cwd) the shell adds itself.
 * @public
 */
export type FakeAgentModules = Pick<FakeAgentMods, 'fs' | 'path' | 'crypto' | 'database'> & {
  /** Connects to the config's lifeline (see {@link FakeAgentConfig.lifeline}); without it the lifeline is not watched. */
  net?: typeof NodeNet;
};

/**
 * The fake agent executable's process shell: preflight failure, `--version`, subcommands, then start (or resume) a
 * conversation, record itself in the run dir, print `ready` and `session <id>`, and stay alive until SIGTERM, SIGINT, SIGHUP
 * or `/exit` on stdin (a clean exit, exit code 0), or until its lifeline closes (its owner's process ended), its sandbox
 * home disappears or its lifetime runs out.
 * Resolves to an exit code, or never while the agent runs.
 *
 * Runs only inside an installed fake agent (its source text is embedded there), never in the library's process: that is why
 * it may read the environment and the wall clock. Self-contained, see `fakeAgentBase`.
 * @public
 */
export function fakeAgentMain(lib: FakeAgentLib, config: FakeAgentConfig, modules: FakeAgentModules): number | undefined {
  const mods: FakeAgentMods = { fs: modules.fs, path: modules.path, crypto: modules.crypto, database: modules.database, env: process.env, now: () => Date.now(), pid: process.pid, cwd: process.cwd() };
  const agent = config.agent;
  const VERSIONS: Record<string, string> = {
    claude: '2.1.197 (Claude Code)', codex: 'codex-cli 0.171.0', opencode: '1.18.33', agy: 'agy 0.0.0-fake', hermes: 'hermes 0.0.0-fake', grok: 'grok 0.0.0-fake', gemini: '0.61.0',
  };
  const out = (text: string): void => void process.stdout.write(text);
  const fail = (code: number, message: string): number => {
    process.stderr.write(`${message}\n`);
    return code;
  };
  const failVar = `MAM_FAKE_${agent.toUpperCase()}_PREFLIGHT_FAIL`;
  const raw = (mods.env[failVar] ?? '').trim();
  const n = Number(raw);
  // Any value but empty or 0 fails; one that is no exit code fails with 1.
  const preflight = raw === '' || n === 0 ? 0 : Number.isInteger(n) && n > 0 && n < 256 ? n : 1;
  const preflightMessage = `${agent}: preflight failed (${failVar}=${raw})`;

  const startOf = (run: FakeAgentRun): FakeAgentStarted => {
    switch (agent) {
      case 'claude': return lib.claude.start(run);
      case 'codex': return lib.codex.start(run);
      case 'opencode': return lib.opencode.start(run);
      case 'agy': return lib.agy.start(run);
      case 'hermes': return lib.hermes.startHermes(run);
      case 'grok': return lib.hermes.startGrok(run);
      case 'gemini': return lib.gemini.start(run);
      default: throw lib.base.exit(2, `unknown fake agent ${String(agent)}`);
    }
  };

  let run: FakeAgentRun;
  let started: FakeAgentStarted;
  try {
    run = { config, mods, args: lib.base.parseArgs(agent, process.argv.slice(2)) };
    if (run.args.version) {
      if (preflight !== 0) return fail(preflight, preflightMessage);
      out(`${VERSIONS[agent] ?? agent}\n`);
      return 0;
    }
    if (agent === 'opencode') {
      const code = lib.opencode.command(run, out);
      if (code !== undefined) return code;
    }
    if (preflight !== 0) return fail(preflight, preflightMessage);
    started = startOf(run);
  } catch (err) {
    const e = err as Partial<FakeAgentExit> | null;
    if (e !== null && typeof e === 'object' && typeof e.fakeAgentExit === 'number') return fail(e.fakeAgentExit, String(e.message));
    throw err;
  }

  const { fs, path } = mods;
  const record = path.join(config.runDir, `${mods.pid}.json`);
  lib.base.writeAtomic(run, record, JSON.stringify({
    pid: mods.pid, agent, id: started.id, startTicks: lib.base.procStart(run, mods.pid), startedAt: mods.now(), cwd: mods.cwd, home: config.home, argv: process.argv.slice(2),
  }));
  out('ready\n');
  out(`session ${started.id}\n`);

  let exiting = false;
  const exitClean = (): void => {
    if (exiting) return;
    exiting = true;
    try {
      started.cleanup();
    } catch {
      // A home removed under it: nothing left to release.
    }
    try {
      fs.unlinkSync(record);
    } catch {
      // Already gone.
    }
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, exitClean);
  if (process.stdin.isTTY !== true) {
    let typed = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('error', () => undefined);
    process.stdin.on('data', (chunk: string) => {
      typed += chunk;
      const lines = typed.split('\n');
      typed = lines.pop() ?? '';
      if (lines.some((l) => l.trim() === '/exit')) exitClean();
    });
  }
  // Its owner's lifeline: the owner's end closes when the owner's process ends (however it ends), and the agent leaves.
  // A lifeline that cannot be reached means the owner is gone already. Unref'd: it never keeps the agent alive alone.
  if (typeof config.lifeline === 'string' && modules.net !== undefined) {
    const line = modules.net.connect(config.lifeline);
    line.on('error', exitClean);
    line.on('close', exitClean);
    line.on('data', () => undefined);
  }
  // An orphan never outlives its sandbox: it leaves once the home is gone, or after its lifetime (default 1 h).
  const bornAt = mods.now();
  const lifetime = Number(mods.env['MAM_FAKE_AGENT_MAX_LIFETIME_MS'] ?? '') || 3_600_000;
  setInterval(() => {
    if (!fs.existsSync(config.home) || mods.now() - bornAt > lifetime) exitClean();
  }, 1000);
  return undefined;
}
