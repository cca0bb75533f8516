import { describeError } from '../errors.js';
import { sanitizeHerdrAgentName } from '../herdr/sanitize.js';
import type { SessionLifecycle } from '../lifecycle/session-lifecycle.js';
import type { HerdrPort } from '../ports/herdr.js';
import type { ResetEntry } from './reset-entry.js';
import type { ResetRunNote } from './reset-table.js';
import { displayName } from './display-name.js';

/**
 * What one target's handling needs: the lifecycle, the workspace, a trace sink, a way to persist a newly seen id into the
 * spec, and whether a signal asked the run to stop (checked between steps, never inside one).
 * @public
 */
export interface ResetStepDeps {
  /** Stops and creates the target's session. */
  life: SessionLifecycle;
  /** The workspace: the cwd every target is recreated in. */
  workspace: string;
  /** Receives one line per step, `reset [<name>]: …`, with every conversation id masked. */
  trace: (line: string) => void;
  /** Persists the id the stopped row now records into the spec entry when it had none, before the purge. */
  recordId: (name: string) => Promise<void>;
  /** herdr, to end an agent a crashed create left behind (started, never registered). */
  herdr: HerdrPort;
  /** True once a signal asked the run to stop; checked between steps. */
  stopRequested: () => boolean;
}

/**
 * How one target's handling ended: the note for its table row (none when the entry state tells it), or `interrupted`
 * when a signal stopped the run between steps.
 * @public
 */
export type ResetStepOutcome = { kind: 'ran'; note: ResetRunNote | null } | { kind: 'interrupted' };

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const OPENCODE_ID = /\bses_[A-Za-z0-9]+/g;

// Every conversation id the step knows of is masked, so no trace line can carry one (a holder's command line may).
function redact(text: string, ids: readonly (string | null)[]): string {
  let out = text.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(UUID, '<conversation id>').replace(OPENCODE_ID, '<conversation id>');
  for (const id of ids) if (id !== null && id !== '') out = out.split(id).join('<conversation id>');
  return out;
}

// A create killed after `agent start` but before the row was registered leaves an agent of the name in herdr, which
// would fail every later create (name taken): its pane is closed through herdr first. null: nothing in the way.
async function clearLeftover(d: ResetStepDeps, t: ResetEntry['target'], say: (s: string) => void): Promise<string | null> {
  const opts = { session: t.herdrServer };
  const got = await d.herdr.agentGet(sanitizeHerdrAgentName(t.name), opts);
  if (got.kind !== 'ok') return null;
  say('an agent of this name, started by an interrupted create and never registered, is still in herdr; closing its pane');
  const closed = await d.herdr.paneClose(got.value.pane_id, opts);
  return closed.kind === 'ok' ? null : `closing the leftover pane failed: ${closed.message}`;
}

async function createAgain(d: ResetStepDeps, e: ResetEntry, say: (s: string) => void): Promise<ResetStepOutcome> {
  const t = e.target;
  if (e.state === 'purged') {
    const blocked = await clearLeftover(d, t, say);
    if (blocked !== null) {
      say(`create failed (rc 1): ${redact(blocked, [t.oldId])}`);
      return { kind: 'ran', note: 'failed at create (rc 1)' };
    }
  }
  say('creating the session again');
  // The old instance's row is gone (purged with it): its created-at is passed so the new one never shares it.
  const made = await d.life.create(
    { name: t.name, agent: t.agent, role: t.role, herdrServer: t.herdrServer, herdrWorkspace: t.herdrWorkspace, cwd: d.workspace },
    t.oldCreatedAt === null ? {} : { replaces: t.oldCreatedAt },
  );
  if (made.kind === 'created') {
    say(made.id === null ? 'created; its id is not recorded yet' : 'created with a new conversation id');
    return { kind: 'ran', note: null };
  }
  const rc = made.kind === 'preflight-failed' ? made.rc : 1;
  const why = made.kind === 'preflight-failed' ? made.message : `${made.step}: ${made.error.message}`;
  say(`create failed (rc ${rc}): ${redact(why, [t.oldId])}`);
  return { kind: 'ran', note: `failed at create (rc ${rc})` };
}

// Stop, record the id, stop with purge: the outcome that ends the step here, or null to go on to the create.
async function stopPhase(d: ResetStepDeps, t: ResetEntry['target'], ids: (string | null)[], say: (s: string) => void): Promise<ResetStepOutcome | null> {
  say('stopping the session');
  const first = await d.life.stop(t.name);
  if (first.kind === 'failed') {
    say(`stop failed at ${first.step}: ${first.error.message}`);
    return { kind: 'ran', note: 'failed at stop' };
  }
  if (first.kind === 'stopped') {
    ids.push(first.id);
    if (first.exit.captured !== null) say('captured its live conversation id onto the row');
    await d.recordId(t.name);
    if (first.id === null) {
      say('no conversation id recorded and none capturable; the row stays stopped, nothing purged');
      return { kind: 'ran', note: 'skipped: no conversation id recorded' };
    }
  }
  if (d.stopRequested()) return { kind: 'interrupted' };
  if (first.kind !== 'not-found') {
    say('stopping with purge of the old conversation');
    const second = await d.life.stop(t.name, { purge: true, yes: true });
    if (second.kind === 'records-preserved') {
      for (const h of second.holders) say(`purge refused: in use by pid ${h.pid} (${h.command}); the row stays stopped, the holder is left alive`);
      return { kind: 'ran', note: 'skipped: purge refused' };
    }
    if (second.kind === 'failed') {
      say(`stop with purge failed at ${second.step}: ${second.error.message}`);
      return { kind: 'ran', note: 'failed at stop' };
    }
    if (second.kind === 'needs-yes') return { kind: 'ran', note: 'failed at stop' };
    say('old conversation purged and the row removed');
  }
  return d.stopRequested() ? { kind: 'interrupted' } : null;
}

// A fault a step could not turn into an outcome (a registry or spec write that failed) ends that step as failed, never
// the run: what it left is what the next run's entry state says.
function thrown(note: ResetRunNote, err: unknown, say: (s: string) => void): ResetStepOutcome {
  say(`${note === 'failed at stop' ? 'stop failed' : 'create failed (rc 1)'}: ${describeError(err)}`);
  return { kind: 'ran', note };
}

/**
 * Handles one target by its state: `pending` → stop, capture/record its id, stop with purge, create; `purged` → create;
 * `created` and `done` are not touched. Each step prints `reset [<name>]: …` with no conversation id in it. A fault
 * thrown inside a step (a failed registry or spec write) ends the step as `failed at stop` / `failed at create (rc 1)`.
 * @public
 */
export async function resetStep(d: ResetStepDeps, e: ResetEntry): Promise<ResetStepOutcome> {
  const t = e.target;
  const ids: (string | null)[] = [t.oldId, e.rowId];
  const say = (s: string): void => d.trace(`reset [${displayName(t.name)}]: ${redact(s, ids)}`);
  if (e.state === 'created' || e.state === 'done') return { kind: 'ran', note: null };
  if (e.state === 'pending') {
    const ended = await stopPhase(d, t, ids, say).catch((err: unknown) => thrown('failed at stop', err, say));
    if (ended !== null) return ended;
  }
  return createAgain(d, e, say).catch((err: unknown) => thrown('failed at create (rc 1)', err, say));
}
