import type * as NodeChildProcess from 'node:child_process';
import type * as NodeFs from 'node:fs';
import type { FakeHerdrProcIo, FakeHerdrSpawnResult } from './fake-herdr-core-procs.js';
import type { FakeHerdrAgentProcess } from './fake-herdr-types.js';

/**
 * How the fake executable treats `agent start`: `spawn` runs the kind's executable from its PATH (a missing one fails the
 * start), `simulate` runs nothing (as the in-process fake), `auto` spawns the kind's executable when it is a fake agent
 * (written by `installFakeAgents`) and simulates otherwise — a real agent CLI on the PATH is never started by accident.
 * @public
 */
export type FakeHerdrAgentMode = 'spawn' | 'simulate' | 'auto';

/**
 * What the installer bakes in about agent processes.
 * @public
 */
export interface FakeHerdrProcConfig {
  mode: FakeHerdrAgentMode;
  /** A spawned agent that never prints `ready` counts as ready this long after its spawn (ms). */
  readyAfterMs: number;
  /** Where each spawned agent's stdout and stderr files go. */
  outputDir: string;
}

/**
 * What the process io runs with: Node's modules, the executable's own environment (its PATH finds the agents) and its clock.
 * @public
 */
export interface FakeHerdrProcIoModules {
  fs: typeof NodeFs;
  childProcess: typeof NodeChildProcess;
  env: Readonly<Record<string, string | undefined>>;
  now: () => number;
}

/**
 * The fake executable's process effects: spawns agents detached with their stdout in a file, tells a live process from a
 * dead, zombie or reused pid (`/proc/<pid>/stat` start ticks where `/proc` exists), and signals only the process it spawned.
 * Undefined in `simulate` mode. Runs only inside the installed `herdr` script (its source text is embedded there).
 * @public
 */
export function makeFakeHerdrProcIo(mods: FakeHerdrProcIoModules, config: FakeHerdrProcConfig): FakeHerdrProcIo | undefined {
  if (config.mode === 'simulate') return undefined;
  const { fs, childProcess, env } = mods;
  const hasProc = fs.existsSync('/proc/self/stat');
  const MAX_OUTPUT = 64 * 1024;

  // Field 3 (state) and field 22 (start ticks) of /proc/<pid>/stat; the comm field may hold spaces and parentheses.
  function statOf(pid: number): { state: string; ticks: number } | null {
    try {
      const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
      return { state: rest[0] ?? '', ticks: Number(rest[19]) };
    } catch {
      return null;
    }
  }

  function alive(proc: FakeHerdrAgentProcess): boolean {
    if (hasProc) {
      const st = statOf(proc.pid);
      if (st === null || st.state === 'Z' || st.state === 'X') return false;
      return proc.startTicks === null || st.ticks === proc.startTicks;
    }
    try {
      process.kill(proc.pid, 0);
      return true;
    } catch (err) {
      return (err as { code?: string }).code === 'EPERM';
    }
  }

  function which(exe: string): string | null {
    for (const dir of (env['PATH'] ?? '').split(':')) {
      if (!dir.startsWith('/')) continue;
      const file = `${dir.replace(/\/+$/, '')}/${exe}`;
      try {
        if (!fs.statSync(file).isFile()) continue;
        fs.accessSync(file, fs.constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
    return null;
  }

  // `auto` spawns only the fake agents installFakeAgents writes (they say so near their top), never a real agent CLI.
  function isFakeAgent(file: string): boolean {
    try {
      const fd = fs.openSync(file, 'r');
      try {
        const buf = Buffer.alloc(512);
        return buf.subarray(0, fs.readSync(fd, buf, 0, 512, 0)).toString('utf8').includes('@mam/core fake agent');
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return false;
    }
  }

  function readOutput(path: string): string {
    try {
      const fd = fs.openSync(path, 'r');
      try {
        const buf = Buffer.alloc(MAX_OUTPUT);
        const n = fs.readSync(fd, buf, 0, MAX_OUTPUT, 0);
        return buf.subarray(0, n).toString('utf8');
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return '';
    }
  }

  return {
    readyAfterMs: config.readyAfterMs,
    spawn(req): FakeHerdrSpawnResult {
      const file = which(req.exe);
      if (config.mode === 'auto' && (file === null || !isFakeAgent(file))) return { kind: 'simulate' };
      if (file === null) return { kind: 'failed', message: `${req.exe}: not found on PATH` };
      fs.mkdirSync(config.outputDir, { recursive: true });
      const base = `${config.outputDir}/${req.key}-${mods.now()}-${Math.random().toString(36).slice(2, 8)}`;
      const childEnv: Record<string, string> = {};
      for (const [k, v] of Object.entries({ ...env, ...req.env })) if (v !== undefined) childEnv[k] = v;
      // herdr removes this from every pane: a Codex tool shell's thread must not leak into an agent it starts.
      delete childEnv['CODEX_THREAD_ID'];
      const out = fs.openSync(`${base}.out`, 'a');
      const err = fs.openSync(`${base}.err`, 'a');
      let child: NodeChildProcess.ChildProcess;
      try {
        child = childProcess.spawn(file, req.args, { cwd: req.cwd, env: childEnv, detached: true, stdio: ['ignore', out, err] });
      } catch (e) {
        return { kind: 'failed', message: `${file}: ${String((e as Error).message)}` };
      } finally {
        fs.closeSync(out);
        fs.closeSync(err);
      }
      child.on('error', () => undefined);
      if (child.pid === undefined) return { kind: 'failed', message: `${file} could not be started in ${req.cwd}` };
      child.unref();
      return { kind: 'spawned', pid: child.pid, startTicks: hasProc ? (statOf(child.pid)?.ticks ?? null) : null, stdout: `${base}.out` };
    },
    probe(proc) {
      return { alive: alive(proc), output: readOutput(proc.stdout) };
    },
    signal(proc, signal) {
      if (!alive(proc)) return;
      try {
        // A closing pane takes the agent's whole process group (its tool shells) with it.
        if (signal === 'SIGKILL') process.kill(-proc.pid, signal);
        else process.kill(proc.pid, signal);
      } catch {
        try {
          process.kill(proc.pid, signal);
        } catch {
          // Gone meanwhile.
        }
      }
    },
  };
}
