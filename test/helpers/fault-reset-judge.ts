// The promises a reset run under an injected fault must keep: it returned (no throw, no unhandled rejection); exit 0
// only when the fault was harmless (the end state of a clean reset); otherwise every target with a leftover — its old
// conversation on disk, its row not recreated, no new id recorded — has a table row that is not `done`, or the run
// has no table and touched nothing.
import type { ResetOutcome } from '../../src/reset/index.js';
import type { RecordingFileSystem } from '../../src/testing/fs/recording-file-system.js';
import type { Sandbox } from '../../src/testing/sandbox/sandbox-types.js';
import { cleanEndProblems, onDisk, type TargetRow, targetRows } from './fault-reset-state.js';

/** A reset run that recorded what it did; `threw` when `run` rejected, `unhandled` the rejections nobody awaited. */
export interface Ran {
  out: ResetOutcome | null;
  threw: string | null;
  unhandled: string[];
  trace: string[];
  fs: RecordingFileSystem;
}

/** What a person reads of a run: exit, kind, message, table and trace. */
export function said(ran: Ran): string {
  const o = ran.out;
  return o === null ? `threw ${ran.threw}` : `exit ${o.exitCode} ${o.kind} ${o.message}\n${o.table}\n${ran.trace.join('\n')}`;
}

// What of this target is not as a clean reset leaves it.
async function leftovers(sb: Sandbox, old: TargetRow, now: TargetRow): Promise<string[]> {
  const out: string[] = [];
  if (old.id !== null) for (const p of await onDisk(sb, old.agent, old.id)) out.push(`old conversation on disk (${p})`);
  if (now.status !== 'running') out.push(`row ${now.status ?? 'absent'}`);
  else if (now.createdAt === old.createdAt) out.push('not recreated');
  else if (now.id === null || now.id === old.id) out.push('no new id recorded');
  return out;
}

/** Every broken promise of a faulted run, given the targets' rows before it. */
export async function judgeFaulted(sb: Sandbox, ran: Ran, before: readonly TargetRow[], at: string): Promise<string[]> {
  const problems = ran.unhandled.map((u) => `${at}: unhandled rejection: ${u}`);
  const out = ran.out;
  if (out === null) return [...problems, `${at}: run threw ${ran.threw}`];
  if (out.exitCode === 0) return [...problems, ...(await cleanEndProblems(sb, before)).map((p) => `${at}: exit 0 but ${p}\n${said(ran)}`)];
  let now: TargetRow[];
  try {
    now = await targetRows(sb, before);
  } catch (err) {
    return [...problems, `${at}: registry unreadable after the run: ${err instanceof Error ? err.message : String(err)}`];
  }
  for (const [i, row] of now.entries()) {
    const old = before[i] as TargetRow;
    const left = await leftovers(sb, old, row);
    if (left.length === 0) continue;
    const shown = out.rows.find((r) => r.name === row.name);
    if (shown?.state === 'done') problems.push(`${at}: ${row.name} shown done but ${left.join(', ')}\n${said(ran)}`);
    if (shown === undefined && out.rows.length > 0) problems.push(`${at}: ${row.name} missing from the table yet ${left.join(', ')}\n${said(ran)}`);
    // The id aside: a run that found it taken off the row may capture it back.
    const untouched = row.status === 'running' && row.createdAt === old.createdAt;
    if (out.rows.length === 0 && !untouched) problems.push(`${at}: no table, yet ${row.name} was touched: ${left.join(', ')}\n${said(ran)}`);
  }
  return problems;
}
