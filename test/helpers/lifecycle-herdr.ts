// An in-process fake herdr (it ends a pane's agent on `/exit` + Enter) whose agents may ignore `/exit`, with hooks that run
// when an agent starts (to lay out its conversation, report its id to herdr, or put its process in a fake process table)
// and when one exits.
import type { HerdrAgentStarted, HerdrCallOptions, HerdrResult } from '../../src/ports/herdr.js';
import { FakeHerdr, type FakeHerdrOptions } from '../../src/testing/herdr/fake-herdr.js';
import type { FakeHerdrPane } from '../../src/testing/herdr/fake-herdr-types.js';

export interface StartedAgent {
  name: string;
  kind: string;
  pane: string;
  argv: readonly string[];
  server: string;
  pid: number;
}

export class ScriptedHerdr extends FakeHerdr {
  /** Agent names that ignore `/exit` (what was typed is dropped at Enter). */
  readonly stubborn = new Set<string>();
  /** Runs after every successful `agent start`. */
  onStart: ((a: StartedAgent) => void | Promise<void>) | undefined;
  /** Runs when an agent went on Enter (the fake herdr ends an agent on `/exit` + Enter). */
  onExit: ((a: { name: string | undefined; pid: number; server: string }) => void) | undefined;

  constructor(opts: FakeHerdrOptions = {}) {
    super(opts);
  }

  #pane(server: string, paneId: string): FakeHerdrPane | undefined {
    return this.state.sessions[server]?.workspaces.flatMap((w) => w.panes).find((p) => p.pane_id === paneId);
  }

  override async paneSendKeys(paneId: string, keys: readonly string[], opts?: HerdrCallOptions): Promise<HerdrResult<void>> {
    const server = opts?.session ?? 'default';
    const before = this.#pane(server, paneId)?.agent ?? null;
    if (before?.name !== undefined && this.stubborn.has(before.name) && keys.includes('enter')) {
      this.edit((e) => {
        const pane = e.state.sessions[server]?.workspaces.flatMap((w) => w.panes).find((p) => p.pane_id === paneId);
        if (pane !== undefined) delete pane.typed;
      });
    }
    const r = await super.paneSendKeys(paneId, keys, opts);
    if (before !== null && (this.#pane(server, paneId)?.agent ?? null) === null) this.onExit?.({ name: before.name, pid: before.pid, server });
    return r;
  }

  override async agentStart(name: string, args: { kind: string; pane: string; timeoutMs?: number; argv?: readonly string[] }, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrAgentStarted>> {
    const r = await super.agentStart(name, args, opts);
    if (r.kind === 'ok') {
      const server = opts?.session ?? 'default';
      await this.onStart?.({ name, kind: args.kind, pane: args.pane, argv: args.argv ?? [], server, pid: this.#pane(server, args.pane)?.agent?.pid ?? 0 });
    }
    return r;
  }
}
