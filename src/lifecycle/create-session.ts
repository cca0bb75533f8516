import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import type { AgentAdapter } from '../agents/types.js';
import type { IdOrderTicket } from '../gate/id-order-ticket.js';
import { sanitizeHerdrAgentName } from '../herdr/sanitize.js';
import { recordedId } from '../registry/row-agent.js';
import { rowByName } from '../registry/row-lookup.js';
import { acquirePane } from './acquire-pane.js';
import type { CreateCleanup, CreateOptions, CreateResult, CreateStep } from './create-result.js';
import { herdrFailure } from './herdr-failure.js';
import { launchArgs, preAssignedId } from './launch-args.js';
import { adapterOf, definitionOf, discoveryContextOf, type LifecycleContext } from './lifecycle-context.js';
import { LifecycleStepError } from './lifecycle-step-error.js';
import { newSessionRow, sessionInstant } from './new-session-row.js';
import { onboardSession } from './onboard-session.js';
import { registerSessionRow } from './register-session-row.js';
import { type ResolvedSessionSpec, resolveSessionSpec, type SessionSpec } from './session-spec.js';
import { checkCreateSession } from '../validation/low-level-args.js';

function failed(step: CreateStep, name: string, message: string, extra: { herdrCode?: string; cause?: unknown; cleanup?: CreateCleanup } = {}): CreateResult {
  const { cleanup = { paneClosed: null }, ...opts } = extra;
  return { kind: 'failed', step, error: new LifecycleStepError(step, name, message, opts), cleanup };
}

/**
 * Creates a session: checks the spec, runs the agent's preflight, passes the id-order gate (post-discovered agents),
 * finds or makes the pane, starts the agent under its sanitised name (with a pre-assigned id where it takes one),
 * registers the row and onboards it. The gate's marker is held until onboarding is over, whatever happens.
 * @public
 */
export async function createSession<Extra extends string = never>(c: LifecycleContext, input: SessionSpec<Extra>, opts: CreateOptions = {}): Promise<CreateResult<Extra>> {
  checkCreateSession([c, input, opts]);
  const resolved = resolveSessionSpec<Extra>(input, c.workspace, { agents: c.agents as readonly AgentDefinition<Extra>[] | undefined });
  if (!resolved.ok) return failed('validate', String(input.name), resolved.problem);
  const spec = resolved.spec;
  const existing = rowByName(await c.registry.snapshot(), spec.name);
  if (existing?.status === 'running') return failed('validate', spec.name, 'a row of that name is registered as running; stop it first');
  const adapter = adapterOf(c, spec.agent);
  const preflight = await adapter.preflight(discoveryContextOf(c, spec.cwd)).catch(() => ({ ok: false, exitCode: 1 }));
  if (!preflight.ok) {
    const rc = preflight.exitCode === 0 ? 1 : preflight.exitCode;
    return { kind: 'preflight-failed', agent: spec.agent, rc, message: `preflight failed (rc ${rc}): ${spec.agent} cannot start here (its CLI is missing or not signed in)` };
  }
  const herdrName = sanitizeHerdrAgentName(spec.name);
  let ticket: IdOrderTicket | null = null;
  if (adapter.idLifecycle === 'post_discovered') {
    const gate = await c.gate.enter({ session: spec.name, cwd: spec.cwd, herdrServer: spec.herdrServer, herdrName, ...(opts.signal === undefined ? {} : { signal: opts.signal }) });
    if (gate.kind === 'refused') return { kind: 'failed', step: 'gate', error: new LifecycleStepError('gate', spec.name, gate.message), refusal: gate, cleanup: { paneClosed: null } };
    ticket = gate.ticket;
  }
  try {
    return await launch(c, spec, adapter, { herdrName, ticket, avoid: [opts.replaces, existing?.herdr_session_created_at] }, opts);
  } finally {
    await ticket?.release().catch(() => undefined);
  }
}

async function launch(c: LifecycleContext, spec: ResolvedSessionSpec<string>, adapter: AgentAdapter<string>, at: { herdrName: string; ticket: IdOrderTicket | null; avoid: readonly (string | null | undefined)[] }, opts: CreateOptions): Promise<CreateResult<never>> {
  const { herdr, fs, clock } = c.ports;
  const server = { session: spec.herdrServer };
  const pane = await acquirePane(herdr, fs, { server: spec.herdrServer, label: spec.herdrWorkspace, cwd: spec.cwd });
  if (pane.kind === 'failed') {
    const f = herdrFailure(pane.result);
    return failed('workspace', spec.name, f.text, f.code === undefined ? {} : { herdrCode: f.code });
  }
  await at.ticket?.notePane(pane.paneId).catch(() => undefined);
  const closeOurs = async (started: boolean): Promise<CreateCleanup> => {
    if (!pane.created && !started) return { paneClosed: null, note: `pane ${pane.paneId} was an existing shell pane; left as it was` };
    const closed = await herdr.paneClose(pane.paneId, server);
    return closed.kind === 'ok' ? { paneClosed: pane.paneId } : { paneClosed: null, note: `could not close pane ${pane.paneId}: ${herdrFailure(closed).text}` };
  };
  const definition = definitionOf(c, spec.agent);
  const preId = preAssignedId(definition);
  const instant = sessionInstant(clock.now(), at.avoid);
  const startArgs = { kind: definition.launch.herdrKind ?? definition.name, pane: pane.paneId, argv: launchArgs(definition, preId), ...(c.timeouts.startMs === undefined ? {} : { timeoutMs: c.timeouts.startMs }) };
  const started = await herdr.agentStart(at.herdrName, startArgs, server);
  if (started.kind !== 'ok') {
    const f = herdrFailure(started);
    // A start that timed out may have left the CLI running in the pane.
    const cleanup = await closeOurs(started.kind === 'error' && started.code === 'timeout');
    return failed('start', spec.name, f.text, { cleanup, ...(f.code === undefined ? {} : { herdrCode: f.code }) });
  }
  const info = await herdr.paneProcessInfo(pane.paneId, server);
  const pid = info.kind === 'ok' ? (info.value.foreground_processes?.[0]?.pid ?? null) : null;
  const row = newSessionRow(spec, instant, { id: pane.paneId, pid }, preId, { agents: c.agents });
  const registered = await registerSessionRow(c.registry, row);
  if (registered !== 'registered') {
    const cleanup = await closeOurs(true);
    return failed('register', spec.name, registered.message, { cleanup, cause: registered.cause });
  }
  const where = { herdrName: at.herdrName, server: spec.herdrServer, cwd: spec.cwd };
  const onboarding = opts.onboard === false
    ? { ran: false, ready: false, id: preId, source: preId === null ? null : ('pre-assigned' as const), reason: preId === null ? 'onboarding skipped' : null }
    : await onboardSession(c, spec.agent, row, where, opts.signal);
  const now = rowByName(await c.registry.snapshot(), spec.name);
  const final = now !== undefined && now.herdr_session_created_at === row.herdr_session_created_at ? now : row;
  return { kind: 'created', row: final, id: recordedId(final, { agents: c.agents }), onboarding };
}
