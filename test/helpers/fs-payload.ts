/** A large payload (0.25–1.25 MB of JSON) whose every byte depends on `seq`, so a torn or mixed file cannot pass {@link checkPayload}. */
export function makePayload(seq: number): string {
  const size = 256 * 1024 + ((seq * 7919) % (1024 * 1024));
  const fill = String.fromCharCode(97 + (seq % 26)).repeat(size);
  return JSON.stringify({ seq, size, fill, end: seq });
}

/** The payload's seq when `text` is exactly one complete payload, else an error message. */
export function checkPayload(text: string): number | string {
  let parsed: { seq?: unknown; size?: unknown; fill?: unknown; end?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch (err) {
    return `not JSON (${text.length} bytes): ${String(err)}`;
  }
  if (typeof parsed.seq !== 'number') return 'no seq';
  return text === makePayload(parsed.seq) ? parsed.seq : `payload ${parsed.seq} differs from what was written`;
}
