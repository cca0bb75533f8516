// The table of `mam` commands: name → a lazy loader of its `<name>Command` (a command's module loads only when it runs);
// what each accepts and answers is its spec in commands/specs.ts. Adding a command is adding its file under commands/,
// its spec, and its line here.
import type { Io } from './commands/cli-kit.js';
import { type CommandName, SPECS } from './commands/specs.js';

/** Where a command writes: the dispatcher passes the process streams, tests may pass collectors. */
export type CliIo = Io;

/** A command's entry point: its arguments (after the command name) in, an exit code out. */
export type CliCommand = (argv: string[], io: CliIo) => Promise<number>;

/** One command: its synopsis (`mam <name> …  → what it does`) and how to load its entry point. */
export interface CliCommandEntry {
  /** The line shown for it by `mam --help`: its usage and, after `→`, what it does. */
  readonly synopsis: string;
  /** Loads the command's module and returns its entry point. */
  readonly load: () => Promise<CliCommand>;
}

const LOADERS: Readonly<Record<CommandName, () => Promise<CliCommand>>> = {
  discover: async () => (await import('./commands/discover.js')).discoverCommand,
  doctor: async () => (await import('./commands/doctor.js')).doctorCommand,
  loop: async () => (await import('./commands/loop.js')).loopCommand,
  orc: async () => (await import('./commands/orc.js')).orcCommand,
  policy: async () => (await import('./commands/policy.js')).policyCommand,
  purge: async () => (await import('./commands/purge.js')).purgeCommand,
  reconcile: async () => (await import('./commands/reconcile.js')).reconcileCommand,
  reset: async () => (await import('./commands/reset.js')).resetCommand,
  status: async () => (await import('./commands/status.js')).statusCommand,
};

/** Every command, in the order `mam --help` lists them. */
export const COMMANDS: Readonly<Record<string, CliCommandEntry>> = Object.fromEntries(
  (Object.keys(SPECS) as CommandName[]).map((name) => [name, { synopsis: `${SPECS[name].usage} → ${SPECS[name].summary}.`, load: LOADERS[name] }]),
);

/** True when `name` is a command. */
export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(SPECS, name);
}

