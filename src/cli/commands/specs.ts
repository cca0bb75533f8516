// What each `mam` command accepts and answers, written once: its options (the parser's config and the help both come
// from here), its positional arguments, its `--json` document and its exit codes. Plain data: `mam --help` loads no
// command module (the built-in agents' names come from their one list).
import { AGENT_NAMES } from '../../ids/agent-names.js';

/** One option: its type, the placeholder of its value, and one line of help. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  /** The value's placeholder in help (`DIR`, `WS`); string options only. */
  readonly value?: string;
  readonly help: string;
}

/** One command: synopsis, what it does, positionals, options, its `--json` document, exit codes. */
export interface CommandSpec {
  /** The usage line without `usage: `, e.g. `mam doctor [--home DIR] [--json]`. */
  readonly usage: string;
  /** One sentence: what the command does. */
  readonly summary: string;
  readonly positionals: ReadonlyArray<readonly [name: string, help: string]>;
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** The shape of the `--json` document (one line of help). */
  readonly json: string;
  readonly exits: ReadonlyArray<readonly [code: string, meaning: string]>;
}

const HOME: OptionSpec = { type: 'string', value: 'DIR', help: 'the home directory holding the agents\' stores: an absolute path to an existing directory (default: $HOME)' };
const WORKSPACE: OptionSpec = { type: 'string', value: 'WS', help: 'the workspace: an existing directory, relative to the current one or absolute' };
const WORKSPACE_CWD: OptionSpec = { ...WORKSPACE, help: `${WORKSPACE.help} (default: the current directory)` };
const JSON_OPT: OptionSpec = { type: 'boolean', help: 'print one JSON document on stdout (errors too: {"error":{"code","message","data"}})' };
const BUILTIN_LIST = AGENT_NAMES.join(', ');
const AGENTS: OptionSpec = { type: 'string', value: 'MODULE', help: 'an ES module (a path from the current directory) whose exports are agent definitions (defineAgent; or a default export list of them), used beside the built-in agents' };
const USAGE_EXIT = ['2', 'usage error: an unknown, missing, repeated or invalid option or argument'] as const;
const LIBRARY_EXIT = ['1', 'an error reading or writing the registry or a store (the message says which)'] as const;
const SIGNAL_EXITS = [['129/130/143', 'interrupted by SIGHUP / SIGINT / SIGTERM']] as const;

/** Every command, in the order `mam --help` lists them. */
export const SPECS = {
  discover: {
    usage: 'mam discover <agent> --workspace WS [--home DIR] [--epoch S] [--agents MODULE] [--json]',
    summary: 'lists the agent\'s conversations in the workspace, newest first (read-only)',
    positionals: [['<agent>', `${BUILTIN_LIST}, or an agent of --agents`]],
    options: { workspace: WORKSPACE, home: HOME, epoch: { type: 'string', value: 'S', help: 'keep only conversations started at or after this time, epoch seconds' }, agents: AGENTS, json: JSON_OPT },
    json: '{"kind":"discovered","agent","workspace","ids":[…]}',
    exits: [['0', 'listed (possibly none)'], LIBRARY_EXIT, USAGE_EXIT],
  },
  doctor: {
    usage: 'mam doctor [--home DIR] [--agents MODULE] [--json]',
    summary: 'per agent: is a store there, its layout and version, known or unknown, counts, problems (read-only; no agent CLI runs)',
    positionals: [],
    options: { home: HOME, agents: AGENTS, json: JSON_OPT },
    json: '{"kind":"stores","home","reports":[{"agent","presence","root","layout","known","counts","problems"}…]}',
    exits: [['0', 'every store present is of a known layout, with no problem'], ['1', 'a store of an unknown layout or with a problem (a purge there would refuse or leave doubt)'], USAGE_EXIT],
  },
  loop: {
    usage: 'mam loop --creator NAME --task TEXT [--workspace WS] [--home DIR] [--wait-ms MS] [--quiescence-ms MS] [--timeout-s S] [--agents MODULE] [--json]',
    summary: 'runs one job through the creator\'s agent: prompt, watch it finish, complete the job, pin its conversation id',
    positionals: [],
    options: {
      creator: { type: 'string', value: 'NAME', help: 'the registry row (session name) of the creator' },
      task: { type: 'string', value: 'TEXT', help: 'the prompt to send' },
      workspace: WORKSPACE_CWD,
      home: HOME,
      'wait-ms': { type: 'string', value: 'MS', help: 'how long to wait for the agent to start working, milliseconds' },
      'quiescence-ms': { type: 'string', value: 'MS', help: 'how long the agent must stay idle to count as finished, milliseconds' },
      'timeout-s': { type: 'string', value: 'S', help: 'give up after this many seconds' },
      agents: AGENTS,
      json: { ...JSON_OPT, help: `${JSON_OPT.help}; the trace goes to stderr` },
    },
    json: 'the LoopOutcome: {"kind":"completed"|"refused"|"failed"|"aborted",…}',
    exits: [['0', 'the job completed'], ['1', 'refused (another loop or reset runs, an unknown creator) or failed'], USAGE_EXIT, ...SIGNAL_EXITS],
  },
  orc: {
    usage: 'mam orc --uuid ID | --list | --remove ID [--purge-conversation] [--yes] [--dry-run] [--workspace WS] [--home DIR] [--agents MODULE] [--json]',
    summary: 'registers, lists or removes orchestrator conversation ids (optionally purging the conversation)',
    positionals: [],
    options: {
      uuid: { type: 'string', value: 'ID', help: 'register this orchestrator id' },
      list: { type: 'boolean', help: 'list the registered orchestrator ids' },
      remove: { type: 'string', value: 'ID', help: 'unregister this orchestrator id' },
      'purge-conversation': { type: 'boolean', help: 'with --remove: also purge its conversation (needs --yes)' },
      yes: { type: 'boolean', help: 'with --remove: confirm the purge' },
      'dry-run': { type: 'boolean', help: 'with --remove: say what would be done, change nothing' },
      workspace: WORKSPACE_CWD,
      home: HOME,
      agents: AGENTS,
      json: JSON_OPT,
    },
    json: '{"kind":"registered"|"already-registered","id"}, {"kind":"orchestrators","ids":[…]}, or the OrchestratorRemoveResult ({"kind":"removed"|"dry-run"|"not-registered"|"needs-yes"|"in-use"|"purge-refused",…})',
    exits: [['0', 'done (or the dry run)'], ['1', 'not registered, or a registry error'], USAGE_EXIT, ['4', 'the purge needs --yes'], ['5', 'the conversation is in use'], ['6', 'the purge was refused']],
  },
  policy: {
    usage: 'mam policy FILE.json… [--json]',
    summary: 'runs ShadowPolicy.decide on each scenario file and prints one decision per file',
    positionals: [['FILE.json…', 'scenario files (a PolicyScenario each)']],
    options: { json: JSON_OPT },
    json: '{"kind":"decisions","decisions":[{"file","scenarioId","decision","reason"}…],"failures":[{"file","message"}…]}',
    exits: [['0', 'every file decided'], ['1', 'a file could not be read or parsed (the others are still decided)'], USAGE_EXIT],
  },
  purge: {
    usage: 'mam purge <agent|auto> <id> [--home DIR] [--workspace WS] [--dry-run] [--agents MODULE] [--json]',
    summary: 'removes every artifact of one conversation, refusing while it is in use; --dry-run prints the plan and changes nothing',
    positionals: [['<agent|auto>', `${BUILTIN_LIST}, an agent of --agents, or auto (whichever agent has the id)`], ['<id>', 'the conversation id']],
    options: {
      home: HOME,
      workspace: { ...WORKSPACE, help: `${WORKSPACE.help}; when given, a conversation of another workspace is refused` },
      'dry-run': { type: 'boolean', help: 'print the plan and change nothing; exit with the code the purge would give' },
      agents: AGENTS,
      json: JSON_OPT,
    },
    json: 'the PurgeResult: {"kind":"purged"|"partial"|"in-use"|"unresolved"|"not-in-workspace"|"refused"|"changed"|"dry-run","agent",…}',
    exits: [['0', 'purged: nothing of it is left'], LIBRARY_EXIT, USAGE_EXIT, ['4', 'in use: nothing removed'], ['5', 'unresolved: no artifact of the id'], ['6', 'refused: nothing removed'], ['7', 'partial: removed some, left some']],
  },
  reconcile: {
    usage: 'mam reconcile [--workspace WS] [--home DIR] [--apply] [--agents MODULE] [--json]',
    summary: 'captures the id of every running row that has none pinned; a dry run unless --apply',
    positionals: [],
    options: { workspace: WORKSPACE_CWD, home: HOME, apply: { type: 'boolean', help: 'pin the ids found (without it nothing is written)' }, agents: AGENTS, json: JSON_OPT },
    json: '{"kind":"reconcile","workspace","apply","entries":[{"outcome":"would-pin"|"pinned"|"unresolved",…}…]}',
    exits: [['0', 'done (or the dry run)'], LIBRARY_EXIT, USAGE_EXIT],
  },
  reset: {
    usage: 'mam reset --workspace WS [--yes] [--dry-run] [--agents MODULE] [--json]',
    summary: 'restarts every running agent of the workspace in a new conversation and purges the old ones; resumable',
    positionals: [],
    options: {
      workspace: WORKSPACE,
      yes: { type: 'boolean', help: 'do not ask for confirmation' },
      'dry-run': { type: 'boolean', help: 'list what would be reset, change nothing' },
      agents: AGENTS,
      json: { ...JSON_OPT, help: `${JSON_OPT.help}; the trace goes to stderr` },
    },
    json: 'the ResetOutcome: {"kind":"done"|"refused"|"needs-confirmation"|"dry-run"|"incomplete"|"failed"|"interrupted","exitCode","rows",…}',
    exits: [['0', 'every target done'], ['1', 'refused, or a step failed'], USAGE_EXIT, ['3', 'no confirmation (not a terminal and no --yes)'], ['4', 'something skipped or pending'], ['5', 'created, but an id not recorded yet'], ...SIGNAL_EXITS],
  },
  status: {
    usage: 'mam status --workspace WS [--home DIR] [--agents MODULE] [--json]',
    summary: 'the registry\'s rows with their resume state, and the orchestrators',
    positionals: [],
    options: { workspace: WORKSPACE, home: HOME, agents: AGENTS, json: JSON_OPT },
    json: '{"kind":"status","workspace","sessionsDetail":[{"name","agent","status","role","ownId","resumeState"}…],"orchestratorUuids":[…]}',
    exits: [['0', 'listed'], LIBRARY_EXIT, USAGE_EXIT],
  },
} as const satisfies Record<string, CommandSpec>;

/** A command's name. */
export type CommandName = keyof typeof SPECS;

/** `mam <name> --help`: the synopsis, the usage line, positionals, options, the `--json` document, the exit codes. */
export function helpOf(name: CommandName): string {
  const spec: CommandSpec = SPECS[name];
  const options: Array<readonly [string, string]> = [
    ...Object.entries(spec.options).map(([flag, o]) => [`--${flag}${o.value === undefined ? '' : ` ${o.value}`}`, o.help] as const),
    ['-h, --help', 'show this help and exit 0'],
  ];
  const rows = (xs: ReadonlyArray<readonly [string, string]>): string[] => {
    const width = Math.max(...xs.map(([a]) => a.length));
    return xs.map(([a, b]) => `  ${a.padEnd(width)}  ${b}`);
  };
  return [
    `mam ${name} — ${spec.summary}`,
    '',
    `usage: ${spec.usage}`,
    ...(spec.positionals.length === 0 ? [] : ['', 'arguments:', ...rows(spec.positionals)]),
    '',
    'options:',
    ...rows(options),
    '',
    `--json: ${spec.json}`,
    '',
    'exit codes:',
    ...rows(spec.exits),
    '',
  ].join('\n');
}
