// The table of `mam` commands: name → one-line synopsis and a lazy loader of its `<name>Command` (a command's module loads
// only when it runs). Adding a command is adding its file under commands/ and its line here.

/** Where a command writes: the dispatcher passes the process streams, tests may pass collectors. */
export interface CliIo {
  /** Writes to standard output. */
  stdout: (text: string) => void;
  /** Writes to standard error. */
  stderr: (text: string) => void;
}

/** A command's entry point: its arguments (after the command name) in, an exit code out. */
export type CliCommand = (argv: string[], io: CliIo) => Promise<number>;

/** One command: its synopsis (`mam <name> …  → what it does`) and how to load its entry point. */
export interface CliCommandEntry {
  /** The synopsis line shown by `mam --help` and `mam <name> --help`. */
  readonly synopsis: string;
  /** Loads the command's module and returns its entry point. */
  readonly load: () => Promise<CliCommand>;
}

/** Every command, in the order `mam --help` lists them. */
export const COMMANDS: Readonly<Record<string, CliCommandEntry>> = {
  discover: {
    synopsis: 'mam discover <agent> --workspace WS [--home DIR] [--epoch S] [--json] → the agent\'s conversations in WS, newest first.',
    load: async () => (await import('./commands/discover.js')).discoverCommand,
  },
  doctor: {
    synopsis: 'mam doctor [--home DIR] [--json] → per agent: store present, layout/version, known or unknown, counts, problems (read-only); exit 0 all known, 1 an unknown layout or a problem, 2 usage.',
    load: async () => (await import('./commands/doctor.js')).doctorCommand,
  },
  loop: {
    synopsis: 'mam loop --creator NAME --task TEXT [--workspace WS] [--home DIR] [--wait-ms MS] [--quiescence-ms MS] [--timeout-s S] [--json] → exit 0 completed, 1 refused or failed, 2 usage, 129/130/143 interrupted.',
    load: async () => (await import('./commands/loop.js')).loopCommand,
  },
  orc: {
    synopsis: 'mam orc --uuid ID | --list | --remove ID [--purge-conversation] [--yes] [--dry-run] [--workspace WS] [--home DIR] → exit 0, 1 not registered or a registry error, 2 usage, 4 needs --yes, 5 in use, 6 purge refused.',
    load: async () => (await import('./commands/orc.js')).orcCommand,
  },
  policy: {
    synopsis: 'mam policy FILE.json… [--json] → runs ShadowPolicy.decide on each scenario file and prints one decision per file.',
    load: async () => (await import('./commands/policy.js')).policyCommand,
  },
  purge: {
    synopsis: 'mam purge <agent|auto> <id> [--home DIR] [--workspace WS] [--dry-run] [--json] → exit 0 purged, 4 in use, 5 unresolved, 6 refused with nothing removed, 2 usage; --dry-run prints the plan and changes nothing.',
    load: async () => (await import('./commands/purge.js')).purgeCommand,
  },
  reconcile: {
    synopsis: 'mam reconcile [--workspace WS] [--home DIR] [--apply] [--json] → captures the id of every running post-discovered row with none pinned; a dry run unless --apply. Exit 0, 1 registry error, 2 usage.',
    load: async () => (await import('./commands/reconcile.js')).reconcileCommand,
  },
  reset: {
    synopsis: 'mam reset --workspace WS [--yes] [--dry-run] → trace lines, then the table; exit 0 / 1 / 3 / 4 / 5 / 129 / 130 / 143, 2 usage.',
    load: async () => (await import('./commands/reset.js')).resetCommand,
  },
  status: {
    synopsis: 'mam status --workspace WS [--home DIR] [--json] → the registry\'s rows with their resume state, and the orchestrators.',
    load: async () => (await import('./commands/status.js')).statusCommand,
  },
};

/** The synopsis of a command, or its name when it has none. */
export function commandSummary(name: string): string {
  return COMMANDS[name]?.synopsis ?? name;
}
