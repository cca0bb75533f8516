// The demo's printing: numbered step titles, one short line per thing done, and checks that end the demo when a claim is
// false (so it cannot silently lie).

let step = 0;

/** Prints the next numbered step title. */
export function title(text: string): void {
  console.log(`\n[${++step}] ${text}`);
}

/** One progress line under the current step. */
export function line(text: string): void {
  console.log(`    ${text}`);
}

/** A block (a table, a listing) indented under the current step. */
export function block(text: string): void {
  for (const l of text.split('\n')) if (l !== '') console.log(`      ${l}`);
}

/** A claim the demo makes: false → it throws, and the demo exits non-zero. */
export function check(ok: boolean, what: string): asserts ok {
  if (!ok) throw new Error(`demo check failed: ${what}`);
}

/** An id shortened for a progress line (full ids only in tables). */
export function short(id: string | null | undefined): string {
  if (id === null || id === undefined) return '-';
  // Both ends: uuid v7 (codex) ids of one minute share their first 8 characters.
  return id.length <= 16 ? id : `${id.slice(0, id.startsWith('ses_') ? 12 : 8)}…${id.slice(-4)}`;
}
