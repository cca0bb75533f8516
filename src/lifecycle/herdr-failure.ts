import type { HerdrResult } from '../ports/herdr.js';

/**
 * A failed herdr answer as one line (herdr's code and message, or the transport failure) and herdr's code when it gave one.
 * @public
 */
export function herdrFailure(r: Exclude<HerdrResult<unknown>, { kind: 'ok' }>): { text: string; code?: string } {
  if (r.kind === 'error') return { text: `herdr ${r.code}: ${r.message}`, code: r.code };
  return { text: `herdr transport error: ${r.message}${r.stderr === '' ? '' : ` (${r.stderr.trim().slice(0, 300)})`}` };
}
