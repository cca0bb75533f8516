const MONTHS: Readonly<Record<string, number>> = {
  Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11,
};

/**
 * The shape of `ps -o lstart=` under `LC_ALL=C`: `Mon Nov 30 01:49:45 2026` (the day space-padded).
 * @public
 */
export const LSTART_PATTERN = /([A-Z][a-z]{2})\s+([A-Z][a-z]{2})\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s+(\d{4})/;

/**
 * Reads a `ps -o lstart=` value printed under `TZ=UTC0` as UTC epoch milliseconds (the caller's own time zone plays no part), or null.
 * @public
 */
export function parseLstart(text: string): number | null {
  const m = new RegExp(`^\\s*${LSTART_PATTERN.source}\\s*$`).exec(text);
  if (m === null) return null;
  const [, , mon, day, hh, mm, ss, year] = m;
  const month = MONTHS[mon ?? ''];
  if (month === undefined) return null;
  const d = Number(day);
  const h = Number(hh);
  const mi = Number(mm);
  const s = Number(ss);
  if (d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return null;
  const ms = Date.UTC(Number(year), month, d, h, mi, s);
  // Reject a day the month does not have (Feb 30 would roll over into March).
  return new Date(ms).getUTCDate() === d ? ms : null;
}
