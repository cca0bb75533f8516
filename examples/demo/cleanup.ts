// Everything the demo must undo, whatever happens: child processes it spawned, the fake agents of the reset sandbox, and the
// sandbox directory. A signal (SIGINT/SIGTERM/SIGHUP) aborts `signal`: the demo stops after the step in flight and cleans up;
// should that step hang, the clean-up runs anyway after a grace period.
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

const SIGNAL_CODES = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;
type DemoSignal = keyof typeof SIGNAL_CODES;

export class Cleanup {
  readonly #children = new Set<ChildProcess>();
  readonly #tasks: (() => Promise<unknown>)[] = [];
  readonly #abort = new AbortController();
  #done: Promise<void> | null = null;

  constructor(readonly dir: string, graceMs = 15_000) {
    for (const s of Object.keys(SIGNAL_CODES) as DemoSignal[]) {
      process.on(s, () => {
        if (this.#abort.signal.aborted) return;
        console.error(`\ndemo: ${s}: stopping after the step in flight, then cleaning up`);
        this.#abort.abort(s);
        setTimeout(() => void this.run().finally(() => process.exit(SIGNAL_CODES[s])), graceMs).unref();
      });
    }
    // Last resort when the process ends without reaching run(): no child outlives it, nothing stays on disk.
    process.once('exit', () => {
      for (const c of this.#children) c.kill('SIGKILL');
      rmSync(this.dir, { recursive: true, force: true });
    });
  }

  /** Aborted by the first signal; its reason is the signal's name. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** The exit code for the signal that stopped the demo, or null when none did. */
  signalExitCode(): number | null {
    return this.#abort.signal.aborted ? SIGNAL_CODES[this.#abort.signal.reason as DemoSignal] : null;
  }

  /** Remembers a child process: killed at the end if still alive. */
  child(proc: ChildProcess): ChildProcess {
    this.#children.add(proc);
    proc.once('exit', () => this.#children.delete(proc));
    return proc;
  }

  /** Remembers an async undo step (run before the directory is removed, last registered first). */
  defer(task: () => Promise<unknown>): void {
    this.#tasks.unshift(task);
  }

  /** Kills the children, runs the undo steps, removes the directory; once. */
  run(): Promise<void> {
    this.#done ??= (async () => {
      for (const c of this.#children) c.kill('SIGKILL');
      for (const t of this.#tasks) await t().catch((err: unknown) => console.error(`demo: cleanup step failed: ${String(err)}`));
      rmSync(this.dir, { recursive: true, force: true });
    })();
    return this.#done;
  }
}
