import type { StoreReport } from '../agents/types.js';

function knownText(r: StoreReport): string {
  if (r.presence !== 'present') return r.presence;
  if (r.known === false) return 'UNKNOWN: destructive work refuses';
  if (r.readable === false) return 'UNREADABLE: what it holds there is not known';
  return r.known === true ? 'known' : 'empty';
}

/**
 * The reports as text a person reads (what `mam doctor` prints): one line per agent — presence or verdict, root, layout —
 * then its counts and its problems indented below it.
 * @public
 */
export function formatStoreReport(reports: readonly StoreReport[]): string {
  const width = Math.max(0, ...reports.map((r) => r.agent.length));
  const lines: string[] = [];
  for (const r of reports) {
    const head = [r.agent.padEnd(width), knownText(r), r.root ?? '', r.layout ?? ''].filter((x) => x !== '').join('  ');
    lines.push(head);
    const counts = Object.entries(r.counts);
    if (counts.length > 0) lines.push(`${' '.repeat(width + 2)}${counts.map(([k, v]) => `${k}: ${v}`).join(', ')}`);
    for (const p of r.problems) lines.push(`${' '.repeat(width + 2)}! ${p}`);
    for (const f of r.faults ?? []) lines.push(`${' '.repeat(width + 2)}  ${f.cause}: ${f.advice}`);
  }
  return `${lines.join('\n')}\n`;
}
