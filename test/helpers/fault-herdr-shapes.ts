// herdr answers of the right envelope and type whose objects are valid (protocol 20) or broken one field deep: a field
// missing, null, of another JSON type, a negative or fractional count, an unknown status, a bad item inside a list or a
// nested agent_session / foreground process. And the checks that an `ok` value really has the port's types.
import fc from 'fast-check';

type Json = Record<string, unknown>;

const STATUSES = ['idle', 'working', 'blocked', 'done', 'unknown'];

const session = (): Json => ({ source: 'herdr:claude', agent: 'claude', kind: 'id', value: 'a7800001-0000-4000-8000-000000000001' });
const agent = (): Json => ({
  terminal_id: 'term_1', agent_status: 'idle', workspace_id: 'w1', tab_id: 'w1:t1', pane_id: 'w1:p1', focused: false, state_change_seq: 3, revision: 9,
  name: 'rev', agent: 'claude', cwd: '/w', foreground_cwd: '/w', title: 't', agent_session: session(), interactive_ready: true,
});
const pane = (): Json => ({
  pane_id: 'w1:p1', terminal_id: 'term_1', workspace_id: 'w1', tab_id: 'w1:t1', focused: true, agent_status: 'unknown', revision: 0, cwd: '/w', label: 'x', agent_session: session(),
});
const workspace = (): Json => ({ workspace_id: 'w1', number: 1, label: 'w', focused: true, pane_count: 1, tab_count: 1, active_tab_id: 'w1:t1', agent_status: 'idle' });
const tab = (): Json => ({ tab_id: 'w1:t1', workspace_id: 'w1', number: 1, label: 'm', focused: true, pane_count: 1, agent_status: 'idle' });
const proc = (): Json => ({ pid: 42, name: 'claude', argv0: 'claude', argv: ['claude', '-r'], cmdline: 'claude -r', cwd: '/w' });
const processInfo = (): Json => ({ pane_id: 'w1:p1', shell_pid: 7, foreground_process_group_id: 42, foreground_processes: [proc()] });

// A wrong value for any field: another JSON type, null, a negative or fractional number, an unknown word, a nested bad object.
const wrong = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, -1, 1.5, 2 ** 60, '', 'finished', [], {}, [1], ['x', 2], { kind: 'id' }),
  fc.jsonValue({ maxDepth: 2 }),
);

// Mutates `obj` at one path (or leaves it valid): removes the field or sets a wrong value; paths reach nested objects and list items.
function mutateAt(obj: unknown, path: readonly (string | number)[], how: { remove: boolean; value: unknown }): unknown {
  if (path.length === 0) return how.value;
  const [head, ...rest] = path;
  if (Array.isArray(obj) && typeof head === 'number') return obj.map((x, i) => (i === head ? mutateAt(x, rest, how) : x));
  if (typeof obj !== 'object' || obj === null || typeof head !== 'string') return obj;
  const copy: Json = { ...(obj as Json) };
  if (rest.length === 0 && how.remove) delete copy[head];
  else copy[head] = mutateAt(copy[head], rest, how);
  return copy;
}

function paths(v: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(v)) return v.flatMap((x, i) => [[...prefix, i], ...paths(x, [...prefix, i])]);
  if (typeof v === 'object' && v !== null) return Object.entries(v).flatMap(([k, x]) => [[...prefix, k], ...paths(x, [...prefix, k])]);
  return [];
}

const brokenOrValid = (valid: unknown): fc.Arbitrary<unknown> => {
  const all = paths(valid);
  return fc.oneof(
    { arbitrary: fc.constant(valid), weight: 1 },
    { arbitrary: fc.tuple(fc.constantFrom(...all), fc.boolean(), wrong).map(([p, remove, value]) => mutateAt(valid, p, { remove, value })), weight: 6 },
  );
};

const results: Array<[string, () => Json]> = [
  ['agent_list', () => ({ agents: [agent(), { ...agent(), name: 'b', pane_id: 'w1:p2' }] })],
  ['agent_info', () => ({ agent: agent() })],
  ['agent_prompted', () => ({ agent: agent() })],
  ['agent_started', () => ({ agent: agent(), argv: ['claude', '--session-id', 'x'] })],
  ['pane_list', () => ({ panes: [pane()] })],
  ['pane_info', () => ({ pane: pane() })],
  ['pane_process_info', () => ({ process_info: processInfo() })],
  ['workspace_list', () => ({ workspaces: [workspace()] })],
  ['workspace_created', () => ({ workspace: workspace(), tab: tab(), root_pane: pane() })],
];

/** stdout of a JSON command: an envelope of a known type whose body is valid or broken one field deep. */
export const deepEnvelopeArb: fc.Arbitrary<string> = fc
  .constantFrom(...results)
  .chain(([type, body]) => brokenOrValid(body()).map((b) => JSON.stringify({ id: 'cli:x', result: { ...(b as Json), type } })));

/** stdout of `status server --json`: valid or broken one field deep. */
export const deepStatusArb: fc.Arbitrary<string> = brokenOrValid({ status: 'running', running: true, version: '0.8.0', protocol: 20, session: 'default' }).map((b) => JSON.stringify(b));

// ---- checks of an ok value: what the port's types promise -------------------------------------------------------------

const isStr = (v: unknown): boolean => typeof v === 'string';
const isUint = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const optional = (o: Json, k: string, ok: (v: unknown) => boolean): boolean => !(k in o) || ok(o[k]);
const optStrings = (o: Json, keys: readonly string[]): boolean => keys.every((k) => optional(o, k, isStr));

function isSession(v: unknown): boolean {
  return isObj(v) && isStr(v['source']) && isStr(v['agent']) && isStr(v['value']) && (v['kind'] === 'id' || v['kind'] === 'path');
}

const PANE_TEXT = ['cwd', 'foreground_cwd', 'agent', 'title', 'display_agent', 'terminal_title', 'terminal_title_stripped'];

/** AgentInfo as `HerdrAgentInfo` types it. */
export function isAgentInfo(v: unknown): boolean {
  if (!isObj(v)) return false;
  return ['terminal_id', 'workspace_id', 'tab_id', 'pane_id'].every((k) => isStr(v[k])) && STATUSES.includes(v['agent_status'] as string)
    && typeof v['focused'] === 'boolean' && isUint(v['state_change_seq']) && isUint(v['revision'])
    && optStrings(v, ['name', ...PANE_TEXT]) && optional(v, 'agent_session', isSession)
    && ['launch_pending', 'interactive_ready'].every((k) => optional(v, k, (x) => typeof x === 'boolean'));
}

/** PaneInfo as `HerdrPaneInfo` types it. */
export function isPaneInfo(v: unknown): boolean {
  if (!isObj(v)) return false;
  return ['pane_id', 'terminal_id', 'workspace_id', 'tab_id'].every((k) => isStr(v[k])) && STATUSES.includes(v['agent_status'] as string)
    && typeof v['focused'] === 'boolean' && isUint(v['revision']) && optStrings(v, ['label', ...PANE_TEXT]) && optional(v, 'agent_session', isSession);
}

/** WorkspaceInfo as `HerdrWorkspaceInfo` types it. */
export function isWorkspaceInfo(v: unknown): boolean {
  if (!isObj(v)) return false;
  return ['workspace_id', 'label', 'active_tab_id'].every((k) => isStr(v[k])) && ['number', 'pane_count', 'tab_count'].every((k) => isUint(v[k]))
    && typeof v['focused'] === 'boolean' && STATUSES.includes(v['agent_status'] as string);
}

function isProcessInfo(v: unknown): boolean {
  if (!isObj(v) || !isStr(v['pane_id'])) return false;
  if (!optional(v, 'shell_pid', isUint) || !optional(v, 'foreground_process_group_id', isUint) || !optional(v, 'tty', isStr)) return false;
  return optional(v, 'foreground_processes', (list) => Array.isArray(list) && list.every((p) => isObj(p) && isUint(p['pid']) && isStr(p['name'])
    && optStrings(p, ['argv0', 'cmdline', 'cwd']) && optional(p, 'argv', (a) => Array.isArray(a) && a.every(isStr))));
}

function isStatus(v: unknown): boolean {
  return isObj(v) && (v['status'] === 'running' || v['status'] === 'not_running') && typeof v['running'] === 'boolean'
    && optional(v, 'version', (x) => x === null || isStr(x)) && optional(v, 'protocol', (x) => x === null || (typeof x === 'number' && Number.isSafeInteger(x)));
}

const listOf = (each: (v: unknown) => boolean) => (v: unknown): boolean => Array.isArray(v) && v.every(each);

/** The check of each operation's `ok` value (operations answering void or text are checked by their kind alone). */
export const OK_VALUE_CHECKS: Readonly<Record<string, (v: unknown) => boolean>> = {
  serverStatus: isStatus,
  workspaceList: listOf(isWorkspaceInfo),
  workspaceCreate: (v) => isObj(v) && isWorkspaceInfo(v['workspace']) && isObj(v['tab']) && isPaneInfo(v['root_pane']),
  paneList: listOf(isPaneInfo),
  paneGet: isPaneInfo,
  paneProcessInfo: isProcessInfo,
  paneRead: isStr,
  agentRead: isStr,
  agentList: listOf(isAgentInfo),
  agentGet: isAgentInfo,
  agentPrompt: isAgentInfo,
  agentWait: isAgentInfo,
  agentStart: (v) => isObj(v) && isAgentInfo(v['agent']) && Array.isArray(v['argv']) && v['argv'].every(isStr),
};
