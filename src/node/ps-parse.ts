import type { ProcessInfo } from '../ports/process.js';
import { processStateOf } from '../process/process-state.js';
import { LSTART_PATTERN, parseLstart } from './ps-lstart.js';

/** `pid ppid [stat] lstart rest`, where rest is the padded comm column, one space, then args (a line without stat still parses). */
const LINE = new RegExp(`^\\s*(\\d+)\\s+(\\d+)\\s+(?:(\\S+)\\s+)?(${LSTART_PATTERN.source}) (.*)$`);

interface RawLine {
  pid: number;
  ppid: number;
  stat: string | undefined;
  lstart: string;
  rest: string;
}

/**
 * Where the args column starts in the comm+args remainder of the lines, or undefined when it cannot be told.
 * Every ps pads the comm column to one width (procps: 15; BSD: the widest comm), so args start at
 * the same column on (nearly) every line: the first column where at least 95% of lines start a token.
 * @public
 */
export function inferArgsColumn(rests: readonly string[]): number | undefined {
  // One or two lines cannot show the column apart from a blank inside comm.
  if (rests.length < 3) return undefined;
  const need = rests.length - Math.floor(rests.length * 0.05);
  const maxLen = Math.max(...rests.map((r) => r.length));
  for (let k = 1; k < maxLen; k++) {
    let starts = 0;
    for (const r of rests) if (r[k - 1] === ' ' && r[k] !== undefined && r[k] !== ' ') starts++;
    if (starts >= need) return k;
  }
  return undefined;
}

/**
 * Splits the remainder after lstart into comm and args, at `column` when it fits, else by content.
 * @public
 */
export function splitCommArgs(rest: string, column?: number): { comm: string; args: string } {
  const starts: number[] = [];
  for (let j = 1; j < rest.length; j++) if (rest[j - 1] === ' ' && rest[j] !== ' ') starts.push(j);
  if (starts.length === 0) return { comm: rest.trim(), args: '' };
  const at = (j: number): { comm: string; args: string } => ({ comm: rest.slice(0, j).trimEnd(), args: rest.slice(j) });
  if (column !== undefined && starts.includes(column)) return at(column);
  // comm is normally a prefix of (the basename of) argv[0], so args repeats it: take the
  // longest comm that args contains (`tmux: server` over `tmux:`); padding never counts as comm.
  let best: number | undefined;
  for (const j of starts) {
    const { comm, args } = at(j);
    if (/ {2}/.test(comm)) break;
    if (comm !== '' && args.includes(comm)) best = j;
  }
  return at(best ?? (starts[0] as number));
}

/**
 * Parses the output of `ps -o pid=,ppid=,stat=,lstart=,comm=,args=` run under `TZ=UTC0 LC_ALL=C`; lines that do not parse
 * are skipped. A zombie shows as `[comm]` without argv, as `/proc` shows it (ps prints `[comm] <defunct>` or `<defunct>`).
 * @public
 */
export function parsePsOutput(stdout: string): ProcessInfo[] {
  const lines: RawLine[] = [];
  for (const line of stdout.split('\n')) {
    const m = LINE.exec(line);
    if (m === null) continue;
    lines.push({ pid: Number(m[1]), ppid: Number(m[2]), stat: m[3], lstart: m[4] ?? '', rest: m[m.length - 1] ?? '' });
  }
  const column = inferArgsColumn(lines.map((l) => l.rest));
  return lines.map(({ pid, ppid, stat, lstart, rest }) => {
    const state = stat === undefined ? undefined : processStateOf(stat);
    const { comm, args } = splitCommArgs(rest, column);
    const gone = state === 'zombie' || state === 'dead';
    const info: ProcessInfo = { pid, ppid, startedAtMs: parseLstart(lstart), command: gone ? `[${comm}]` : args === '' ? comm : args, comm };
    if (state !== undefined) info.state = state;
    return info;
  });
}
