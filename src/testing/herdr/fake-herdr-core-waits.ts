import type { fakeHerdrBase } from './fake-herdr-core-base.js';
import type { fakeHerdrModel } from './fake-herdr-core-model.js';
import type { fakeHerdrViews } from './fake-herdr-core-views.js';
import type { fakeHerdrProcs } from './fake-herdr-core-procs.js';
import type { FakeHerdrCommandCtx, FakeHerdrProcIo } from './fake-herdr-command.js';
import type { FakeHerdrOutcome, FakeHerdrPending, FakeHerdrState } from './fake-herdr-types.js';

/**
 * What starts a wait (`agent wait`, `agent prompt --wait`).
 * @public
 */
export interface FakeHerdrWaitStart {
  kind: 'wait' | 'prompt';
  id: string;
  target: string;
  terminalId: string;
  until: string[];
  timeoutMs: number | null;
  startSeq: number;
  fromWorking: boolean;
}

/** The parts of the fake herdr's lib this part reaches (the others it never names). */
type Reach = {
  base: ReturnType<typeof fakeHerdrBase>;
  model: ReturnType<typeof fakeHerdrModel>;
  views: ReturnType<typeof fakeHerdrViews>;
  procs: ReturnType<typeof fakeHerdrProcs>;
};

/**
 * Core part: waits — `agent wait` and `agent prompt --wait` — evaluated again and again until they answer. Self-contained, see {@link fakeHerdrBase}.
 * @public
 */
export function fakeHerdrWaits(lib: Reach) {
  const STALL_MS = 5000;

  function begin(c: FakeHerdrCommandCtx, w: FakeHerdrWaitStart): FakeHerdrOutcome {
    const pending: FakeHerdrPending = {
      kind: w.kind, id: w.id, session: c.session, target: w.target, terminal_id: w.terminalId, until: w.until,
      startedAt: c.now, deadline: w.timeoutMs === null ? null : c.now + w.timeoutMs, timeoutMs: w.timeoutMs,
      startSeq: w.startSeq, fromWorking: w.fromWorking,
    };
    return evaluate(c.state, c.now, pending);
  }

  // A wait is pinned to the terminal it started on: a closed, exited or replaced agent ends it.
  function evaluate(state: FakeHerdrState, now: number, w: FakeHerdrPending, procs?: FakeHerdrProcIo): FakeHerdrOutcome {
    // The caller has refreshed the processes already; a pending start is judged against them.
    if (w.kind === 'start') return lib.procs.evaluateStart(state, now, w, procs);
    const sess = state.sessions[w.session];
    const gone = lib.base.fail(w.id, 'agent_not_running', 'agent is no longer running in the target pane');
    const find = () => {
      const loc = sess === undefined || !sess.running ? undefined : lib.model.findAgent(sess, w.target);
      return loc !== undefined && loc.pane.terminal_id === w.terminal_id ? loc : undefined;
    };
    let loc = find();
    if (sess === undefined || loc === undefined) return gone;
    const type = w.kind === 'wait' ? 'agent_info' : 'agent_prompted';
    const matched = (l: NonNullable<typeof loc>): FakeHerdrOutcome | undefined => {
      const advanced = w.kind === 'wait' || w.fromWorking || l.agent.state_change_seq !== w.startSeq;
      return advanced && w.until.includes(l.agent.status) ? lib.base.ok(w.id, { type, agent: lib.views.agentInfo(sess, l) }) : undefined;
    };
    // A matching status answers at once; otherwise one scripted step is played and looked at again.
    const early = matched(loc);
    if (early !== undefined) return early;
    lib.model.consumeQueue(sess, loc);
    loc = find();
    if (loc === undefined) return gone;
    const late = matched(loc);
    if (late !== undefined) return late;
    const advanced = w.kind === 'wait' || w.fromWorking || loc.agent.state_change_seq !== w.startSeq;
    if (w.deadline !== null && now >= w.deadline) return lib.base.fail(w.id, 'timeout', 'timed out waiting for agent status');
    const stallAt = w.startedAt + STALL_MS;
    if (!advanced && now >= stallAt) {
      return lib.base.fail(w.id, 'agent_prompt_stalled',
        `agent prompt produced no observed state change within ${STALL_MS} ms; status is ${loc.agent.status} and state_change_seq remained ${loc.agent.state_change_seq}`);
    }
    const wakeAt = Math.min(
      w.deadline ?? Number.POSITIVE_INFINITY,
      loc.agent.queue.length > 0 ? now : Number.POSITIVE_INFINITY,
      advanced ? Number.POSITIVE_INFINITY : stallAt,
      lib.model.nextTransitionAt(state, w.session),
    );
    return { type: 'pending', resume: w, wakeAt };
  }

  return { begin, evaluate };
}
