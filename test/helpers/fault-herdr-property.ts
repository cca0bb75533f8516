// Random herdr outputs (any stdout, stderr, exit code or signal, a spawn failure, a timeout, a runner that rejects)
// through every HerdrCli operation: always a HerdrResult union (or a presence value), never a throw.
import fc from 'fast-check';
import { expect } from 'vitest';
import type { HerdrRawOutput } from '../../src/herdr/output.js';
import { HerdrCli } from '../../src/node/herdr-cli.js';
import type { HerdrCallOptions } from '../../src/ports/herdr.js';
import { deepEnvelopeArb, deepStatusArb, OK_VALUE_CHECKS } from './fault-herdr-shapes.js';

const TYPES = ['workspace_list', 'workspace_created', 'pane_list', 'pane_info', 'pane_process_info', 'agent_list', 'agent_info', 'agent_prompted', 'agent_started', 'ok', 'error'];
const KEYS = ['workspaces', 'workspace', 'panes', 'pane', 'process_info', 'agents', 'agent', 'name', 'status', 'id', 'pane_id', 'argv', 'type', 'code', 'message'];

const jsonish = fc.jsonValue({ maxDepth: 3 });
const fields = fc.dictionary(fc.constantFrom(...KEYS), fc.oneof(jsonish, fc.array(fc.dictionary(fc.constantFrom(...KEYS), jsonish, { maxKeys: 4 }), { maxLength: 3 })), { maxKeys: 4 });
const envelope = fc.record({ id: jsonish, result: fc.tuple(fc.constantFrom(...TYPES), fields).map(([type, f]) => ({ ...f, type })) }, { requiredKeys: [] });
const errorBody = fc.record({ error: fc.record({ code: fc.oneof(fc.string(), jsonish), message: fc.oneof(fc.string(), jsonish) }, { requiredKeys: [] }) }, { requiredKeys: [] });
const status = fc.record({ running: fc.oneof(fc.boolean(), jsonish), status: fc.oneof(fc.constantFrom('running', 'not_running'), fc.string()) }, { requiredKeys: [] });

// Text a real or broken herdr could print: JSON of the right shapes, with a stray warning line above, cut short, or noise.
const printed = fc
  .tuple(fc.oneof(envelope, errorBody, status, jsonish).map((v) => JSON.stringify(v)), fc.constantFrom('whole', 'warned', 'cut', 'doubled'), fc.nat())
  .map(([json, how, at]) => (how === 'warned' ? `warning: x\n${json}` : how === 'cut' ? json.slice(0, at % (json.length + 1)) : how === 'doubled' ? `${json}\n${json}` : json));
const text = fc.oneof(printed, deepEnvelopeArb, deepStatusArb, fc.string(), fc.string({ unit: 'binary', maxLength: 80 }), fc.constant(''));

/** A runner's answer, or what it throws. */
export type RunnerOutcome = { raw: HerdrRawOutput } | { rejects: unknown };

/** Raw outputs of every kind, and runners that reject with an Error or a non-Error. */
export const runnerOutcomeArb: fc.Arbitrary<RunnerOutcome> = fc.oneof(
  { arbitrary: fc.record({ stdout: text, stderr: text, exitCode: fc.oneof(fc.constantFrom(0, 1, 2, null), fc.integer({ min: -1, max: 255 })), signal: fc.constantFrom(undefined, null, 'SIGKILL', 'SIGTERM') }).map(({ signal, ...r }) => ({ raw: { kind: 'exited' as const, ...r, ...(signal === undefined ? {} : { signal }) } })), weight: 8 },
  { arbitrary: fc.string().map((message) => ({ raw: { kind: 'spawn_failed' as const, message } })), weight: 1 },
  { arbitrary: fc.record({ afterMs: fc.nat(), stdout: text, stderr: text }).map((r) => ({ raw: { kind: 'timed_out' as const, ...r } })), weight: 1 },
  { arbitrary: fc.oneof(fc.string().map((m) => new Error(m)), fc.string(), fc.constant(undefined), fc.constant(null), fc.integer()).map((rejects) => ({ rejects })), weight: 1 },
);

function expectResult(r: unknown, what: string): void {
  expect(typeof r === 'object' && r !== null, what).toBe(true);
  const o = r as Record<string, unknown>;
  switch (o['kind']) {
    case 'ok': {
      expect(Object.hasOwn(o, 'value'), what).toBe(true);
      // Never a wrongly-typed value: an ok answer has every type the port promises, however deep.
      const check = OK_VALUE_CHECKS[what];
      if (check !== undefined) expect(check(o['value']), `${what}: ok with a malformed value: ${JSON.stringify(o['value'])}`).toBe(true);
      return;
    }
    case 'error':
      expect([typeof o['code'], typeof o['message'], typeof o['exitCode']], what).toEqual(['string', 'string', 'number']);
      return;
    case 'transport_error':
      expect([typeof o['message'], typeof o['stderr']], what).toEqual(['string', 'string']);
      expect(o['exitCode'] === null || typeof o['exitCode'] === 'number', what).toBe(true);
      return;
    default:
      expect.fail(`${what}: not a HerdrResult: ${JSON.stringify(r)}`);
  }
}

/** Every port operation, with plausible arguments, on `cli`. */
function operations(cli: HerdrCli, opts: HerdrCallOptions): Array<[string, () => Promise<unknown>]> {
  return [
    ['serverStatus', () => cli.serverStatus(opts)],
    ['workspaceList', () => cli.workspaceList(opts)],
    ['workspaceCreate', () => cli.workspaceCreate({ cwd: '/w', label: 'w' }, opts)],
    ['workspaceClose', () => cli.workspaceClose('w1', opts)],
    ['paneList', () => cli.paneList({ workspace: 'w1' }, opts)],
    ['paneGet', () => cli.paneGet('p1', opts)],
    ['paneClose', () => cli.paneClose('p1', opts)],
    ['paneProcessInfo', () => cli.paneProcessInfo('p1', opts)],
    ['paneRead', () => cli.paneRead('p1', { lines: 5 }, opts)],
    ['paneSendText', () => cli.paneSendText('p1', 'hi', opts)],
    ['paneSendKeys', () => cli.paneSendKeys('p1', ['Enter'], opts)],
    ['agentList', () => cli.agentList(opts)],
    ['agentGet', () => cli.agentGet('a', opts)],
    ['agentRead', () => cli.agentRead('a', {}, opts)],
    ['agentSendKeys', () => cli.agentSendKeys('a', ['Enter'], opts)],
    ['agentPrompt', () => cli.agentPrompt('a', 'go', { wait: true, until: ['idle'], timeoutMs: 1000 }, opts)],
    ['agentWait', () => cli.agentWait('a', { until: ['idle', 'done'], timeoutMs: 1000 }, opts)],
    ['agentStart', () => cli.agentStart('a', { kind: 'claude', pane: 'p1' }, opts)],
  ];
}

/** Runs the property for `numRuns` outcomes, each through every operation. */
export async function checkHerdrOutputs(numRuns: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(runnerOutcomeArb, fc.constantFrom<HerdrCallOptions>({}, { session: 's' }, { deadlineMs: 1000 }, { deadlineMs: 0 }), async (outcome, opts) => {
      const cli = new HerdrCli({
        bin: '/nonexistent/herdr',
        run: async () => {
          if ('rejects' in outcome) throw outcome.rejects;
          return outcome.raw;
        },
      });
      for (const [name, call] of operations(cli, opts)) expectResult(await call(), name);
      expect(['present', 'absent', 'server_not_running', 'unknown']).toContain(await cli.agentPresence('a', opts));
    }),
    { numRuns },
  );
}
