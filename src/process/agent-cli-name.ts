import type { ProcessInfo } from '../ports/process.js';

/** How to find the script an interpreter runs: options that take a value, options whose value is inline code, subcommands to step over. */
interface InterpreterSyntax {
  valued: ReadonlySet<string>;
  inline: ReadonlySet<string>;
  subcommands?: ReadonlySet<string>;
  /** `env`: `NAME=value` operands come before the command. */
  assignments?: boolean;
}

const s = (...xs: string[]): ReadonlySet<string> => new Set(xs);
const NODE: InterpreterSyntax = {
  valued: s('-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--title', '--inspect-port', '--env-file', '--input-type'),
  inline: s('-e', '--eval', '-p', '--print'),
};
const PYTHON: InterpreterSyntax = { valued: s('-W', '-X', '-Q'), inline: s('-c') };
const SHELL: InterpreterSyntax = { valued: s('-o', '-O', '+o', '+O'), inline: s('-c') };

function syntaxOf(name: string): InterpreterSyntax | undefined {
  if (name === 'node' || name === 'nodejs') return NODE;
  if (name === 'bun') return { valued: s('-r', '--preload', '--cwd', '--config', '-c'), inline: s('-e', '--eval', '-p', '--print'), subcommands: s('run', 'x') };
  if (name === 'deno') return { valued: s(), inline: s('eval'), subcommands: s('run') };
  if (/^(python|pypy)[0-9.]*$/.test(name)) return PYTHON;
  if (name === 'ruby') return { valued: s('-I', '-r', '-C'), inline: s('-e') };
  if (name === 'perl') return { valued: s(), inline: s('-e', '-E') };
  if (name === 'sh' || name === 'bash' || name === 'dash' || name === 'zsh') return SHELL;
  if (name === 'env') return { valued: s('-u', '-C', '--unset', '--chdir'), inline: s('-S', '--split-string'), assignments: true };
  return undefined;
}

function basename(path: string): string {
  return path.split('/').filter((x) => x !== '').pop() ?? '';
}

/**
 * The executables of the agent CLIs a process table may show, each named exactly like its agent (`claude`, `opencode`,
 * …): what the helper chain stops at. A fact about process tables, kept here below the agents; every built-in agent's
 * name must be in it (test/unit/process/agent-cli-names.test.ts holds that).
 * @public
 */
export const AGENT_CLI_NAMES: ReadonlySet<string> = new Set(['claude', 'agy', 'codex', 'grok', 'hermes', 'opencode', 'gemini']);

function asAgent(name: string): string | null {
  return AGENT_CLI_NAMES.has(name) ? name : null;
}

// Index of the script (or, for env, the command) an interpreter at argv[i] runs; undefined for inline code or none.
function scriptIndex(argv: readonly string[], i: number, syntax: InterpreterSyntax): number | undefined {
  let j = i + 1;
  while (j < argv.length) {
    const a = argv[j] as string;
    if (a === '--') return j + 1 < argv.length ? j + 1 : undefined;
    if (syntax.inline.has(a)) return undefined;
    if (syntax.subcommands?.has(a) === true || (syntax.assignments === true && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a))) j += 1;
    else if (syntax.valued.has(a)) j += 2;
    else if (a.startsWith('-') && a.length > 1) j += 1;
    else return j;
  }
  return undefined;
}

function agentOfArgv(argv: readonly string[]): string | null {
  let i = 0;
  // Each step peels one interpreter or wrapper: `env node /usr/local/bin/claude …` takes two.
  for (let hops = 0; hops < 4 && i < argv.length; hops++) {
    const name = basename(argv[i] as string);
    const agent = asAgent(name);
    if (agent !== null) return agent;
    const syntax = syntaxOf(name);
    const next = syntax === undefined ? undefined : scriptIndex(argv, i, syntax);
    if (next === undefined) return null;
    i = next;
  }
  return null;
}

/**
 * The agent name when the process IS an agent CLI — by the basename of argv[0] or comm, or an interpreter running an agent script
 * (`node /usr/local/bin/claude …`, `python3 …/hermes`) — else null.
 * @public
 */
export function agentCliName(proc: Pick<ProcessInfo, 'argv' | 'command' | 'comm'>): string | null {
  const argv = proc.argv ?? proc.command.split(/\s+/).filter((x) => x !== '');
  return agentOfArgv(argv) ?? asAgent(basename(proc.comm));
}
