/**
 * The fields of `/proc/<pid>/stat` the library uses.
 * @public
 */
export interface ProcStat {
  pid: number;
  comm: string;
  state: string;
  ppid: number;
  /** Field 22: start time in clock ticks since boot. */
  startTicks: number;
}

/**
 * Parses one `/proc/<pid>/stat` line, or returns null when it is not one.
 * @public
 */
export function parseProcStat(text: string): ProcStat | null {
  // comm may contain spaces and parentheses, and is at most 16 bytes: everything
  // between the first '(' and the LAST ')' is comm.
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 1 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  const fields = text.slice(close + 1).trim().split(/\s+/);
  // fields[0] is field 3 (state), so field N is fields[N - 3].
  const state = fields[0];
  const ppid = Number(fields[1]);
  const startTicks = Number(fields[19]);
  if (!Number.isSafeInteger(pid) || state === undefined || !Number.isSafeInteger(ppid) || !Number.isSafeInteger(startTicks)) return null;
  return { pid, comm: text.slice(open + 1, close), state, ppid, startTicks };
}

/**
 * Splits the content of `/proc/<pid>/cmdline` into argv (empty for a kernel thread or a zombie).
 * @public
 */
export function splitCmdline(text: string): string[] {
  if (text === '') return [];
  const body = text.endsWith('\0') ? text.slice(0, -1) : text;
  return body.split('\0');
}

/**
 * The boot time in epoch seconds from the `btime` line of `/proc/stat`, or null.
 * @public
 */
export function parseBootTime(procStat: string): number | null {
  const m = /^btime\s+(\d+)\s*$/m.exec(procStat);
  return m?.[1] === undefined ? null : Number(m[1]);
}
