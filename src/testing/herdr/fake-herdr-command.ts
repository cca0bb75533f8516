// The fake herdr's command and process-effect shapes, shared by its parts (its own file, so no part imports another
// part for a type).
import type { FakeHerdrArgSpec, FakeHerdrParsedArgs } from './fake-herdr-core-args.js';
import type { FakeHerdrAgentProcess, FakeHerdrEnv, FakeHerdrOutcome, FakeHerdrSession, FakeHerdrState } from './fake-herdr-types.js';

/**
 * What a command runs against: the whole state, the addressed server and the time.
 * @public
 */
export interface FakeHerdrCommandCtx {
  state: FakeHerdrState;
  sess: FakeHerdrSession;
  session: string;
  now: number;
  env: FakeHerdrEnv;
  /** Process effects (the fake executable only): agents are spawned, signalled and watched. */
  procs?: FakeHerdrProcIo;
}

/**
 * One herdr subcommand: its request id, argv shape, client-side checks and server-side behaviour.
 * @public
 */
export interface FakeHerdrCommand {
  id: string;
  usage: string;
  spec: FakeHerdrArgSpec;
  minPos: number;
  maxPos: number;
  /** Client-side validation (usage errors, exit 2), before any server is asked. */
  check?: (p: FakeHerdrParsedArgs) => FakeHerdrOutcome | undefined;
  run: (ctx: FakeHerdrCommandCtx, p: FakeHerdrParsedArgs) => FakeHerdrOutcome;
}

/**
 * What the fake executable is asked to start for `agent start`: the kind's executable, found on its own PATH.
 * @public
 */
export interface FakeHerdrSpawnRequest {
  session: string;
  /** The executable's name (`claude`, `cursor-agent`, …). */
  exe: string;
  args: string[];
  /** The pane's cwd. */
  cwd: string;
  /** What herdr injects into the pane, laid over the executable's own environment. */
  env: Record<string, string>;
  /** The pane's terminal id (names the output files). */
  key: string;
}

/**
 * The outcome of a spawn: a process, `simulate` (no executable to run: behave as the in-process fake), or a failure.
 * @public
 */
export type FakeHerdrSpawnResult =
  | { kind: 'spawned'; pid: number; startTicks: number | null; stdout: string }
  | { kind: 'simulate' }
  | { kind: 'failed'; message: string };

/**
 * A look at a spawned agent's process: is it still the same live process, and what it printed so far.
 * @public
 */
export interface FakeHerdrProcProbe {
  alive: boolean;
  output: string;
}

/**
 * The process effects the fake executable hands its core; the in-process fake has none, so its agents are simulated.
 * @public
 */
export interface FakeHerdrProcIo {
  spawn(req: FakeHerdrSpawnRequest): FakeHerdrSpawnResult;
  probe(proc: FakeHerdrAgentProcess): FakeHerdrProcProbe;
  /** Signals the process, only while it is still the process that was spawned (pid reuse is checked). */
  signal(proc: FakeHerdrAgentProcess, signal: 'SIGTERM' | 'SIGKILL'): void;
  /** A spawned agent that never prints `ready` counts as ready this long after its spawn (ms). */
  readyAfterMs: number;
}
