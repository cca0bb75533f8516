// A shell tool call that keeps a CLI's turn in flight: it writes its pid to a marker file, then sleeps. The test waits
// for the marker, and kills the sleeper by that pid once the CLI is gone.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { alive, waitFor } from './run-cli.js';

export class Sleepers {
  readonly #root: string;
  readonly #pids: number[] = [];

  constructor(root: string) {
    this.#root = root;
  }

  file(tag: string): string {
    return join(this.#root, `sleeper-${tag}.pid`);
  }

  /** The command line of the keep-alive tool call. */
  command(tag: string): string {
    return `echo $$ > ${this.file(tag)}; exec python3 -c "import time; time.sleep(600)"`;
  }

  async started(tag: string, timeoutMs = 90_000): Promise<number> {
    const pid = await waitFor(
      `the ${tag} shell tool`,
      () => {
        const text = existsSync(this.file(tag)) ? readFileSync(this.file(tag), 'utf8').trim() : '';
        return text.length > 0 ? Number.parseInt(text, 10) : undefined;
      },
      timeoutMs,
    );
    this.#pids.push(pid);
    return pid;
  }

  async killAll(): Promise<void> {
    for (const pid of this.#pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await waitFor('the shell tools to die', () => this.#pids.every((p) => !alive(p)) || undefined);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
