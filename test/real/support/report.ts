// What a byte-level accounting found, printed so a run's log shows each gap (an `it.fails` check hides its error).
import type { Accounting } from './account.js';

export function report(what: string, acc: Accounting): void {
  const lines = [
    `[real] ${what}:`,
    ...acc.residual.map((p) => `  residual  ${p}`),
    ...acc.mention.map((p) => `  mention   ${p}`),
    ...acc.claimedRemoved.map((p) => `  REMOVED?  ${p}`),
    ...acc.unaccounted.map((p) => `  UNNAMED   ${p}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
