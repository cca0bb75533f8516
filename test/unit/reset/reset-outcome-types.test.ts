// ResetOutcome is a union on `kind`: `refusals` exists only on `refused`, each member's exit code is typed to what it can
// be. The `@ts-expect-error` lines are checked by `npx tsc --noEmit` (test/ is in tsconfig's include): if a member grew
// the field again, the directive itself would fail the typecheck.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ResetOutcome } from '../../../src/reset/index.js';

function describeOutcome(out: ResetOutcome): string {
  switch (out.kind) {
    case 'refused':
      expectTypeOf(out.exitCode).toEqualTypeOf<1>();
      return `refused: ${out.refusals.map((r) => r.kind).join(',')}`;
    case 'done':
      expectTypeOf(out.exitCode).toEqualTypeOf<0>();
      // @ts-expect-error -- only a refused outcome carries refusals
      return `done ${String(out.refusals)}`;
    case 'dry-run':
      expectTypeOf(out.specKept).toEqualTypeOf<false>();
      // @ts-expect-error -- only a refused outcome carries refusals
      void out.refusals;
      return out.message;
    case 'interrupted':
      expectTypeOf(out.exitCode).toEqualTypeOf<129 | 130 | 143>();
      return `signal ${out.exitCode}`;
    case 'incomplete':
      expectTypeOf(out.exitCode).toEqualTypeOf<4 | 5>();
      return `incomplete ${out.exitCode}`;
    case 'needs-confirmation':
      expectTypeOf(out.exitCode).toEqualTypeOf<3>();
      return 'needs --yes';
    case 'failed':
      // @ts-expect-error -- only a refused outcome carries refusals
      void out.refusals;
      return out.message;
    default: {
      const never: never = out;
      return never;
    }
  }
}

// Returns its argument typed as the whole union (no narrowing from the assignment).
function widen(o: ResetOutcome): ResetOutcome {
  return o;
}

describe('ResetOutcome (a discriminated union on kind)', () => {
  it('narrows on kind; exitCode, table, rows, specKept and message are on every member', () => {
    const refused: ResetOutcome = { kind: 'refused', exitCode: 1, table: '', rows: [], refusals: [{ kind: 'bad-spec', path: '/w/.mam/reset-spec.json', message: 'm' }], message: 'm', specKept: true };
    const interrupted: ResetOutcome = { kind: 'interrupted', exitCode: 130, table: 't', rows: [], message: 'stopped', specKept: true };
    expect(describeOutcome(refused)).toBe('refused: bad-spec');
    expect(describeOutcome(interrupted)).toBe('signal 130');
    const any = widen(refused);
    expectTypeOf(any.exitCode).toEqualTypeOf<0 | 1 | 3 | 4 | 5 | 129 | 130 | 143>();
    expectTypeOf(any).toHaveProperty('specKept');
    // @ts-expect-error -- before narrowing, refusals is not there to read
    void any.refusals;
    // @ts-expect-error -- a done outcome with exit code 4 does not typecheck
    const wrong: ResetOutcome = { kind: 'done', exitCode: 4, table: '', rows: [], message: '', specKept: false };
    void wrong;
  });
});
