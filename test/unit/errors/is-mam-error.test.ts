import { describe, expect, expectTypeOf, it } from 'vitest';
import { InvalidIdError, isMamError, MamError, type MamErrorCode, PortError, UnknownAgentError } from '../../../src/errors.js';

describe('isMamError: a brand that survives two copies of the package', () => {
  it('recognises every MamError subclass of this copy', () => {
    for (const e of [new MamError('LOCK_TIMEOUT', 'x'), new PortError('NotFound', 'fs.stat', 'gone'), new UnknownAgentError('x'), new InvalidIdError('codex', 'x')]) {
      expect(isMamError(e)).toBe(true);
    }
  });

  it('recognises an error thrown by a second, separately loaded copy, which instanceof does not', async () => {
    // A query string makes the module loader evaluate errors.ts again: a second class, as a second install would have.
    const specifier = '../../../src/errors.js?second-copy';
    const copy = (await import(/* @vite-ignore */ specifier)) as typeof import('../../../src/errors.js');
    expect(copy.MamError).not.toBe(MamError);
    const foreign = new copy.UnknownAgentError('nope');
    expect(foreign instanceof MamError).toBe(false);
    expect(isMamError(foreign)).toBe(true);
    expect(copy.isMamError(new UnknownAgentError('nope'))).toBe(true);
  });

  it('rejects look-alikes: plain errors, objects with a code, null, primitives', () => {
    const lookAlike = Object.assign(new Error('x'), { code: 'UNKNOWN_AGENT', data: {} });
    for (const v of [lookAlike, new Error('x'), { code: 'NotFound' }, null, undefined, 'UNKNOWN_AGENT', 42]) expect(isMamError(v)).toBe(false);
  });

  it('the brand is not enumerable: it does not show in JSON or Object.keys', () => {
    const e = new MamError('LOCK_TIMEOUT', 'x', { path: '/p' });
    expect(Object.getOwnPropertyDescriptor(e, Symbol.for('@mam/core/MamError'))).toMatchObject({ value: true, enumerable: false });
    expect(Object.keys(JSON.parse(JSON.stringify(e)) as object).sort()).toEqual(['code', 'data', 'name']);
  });

  it('types: code is the union, each class its literal', () => {
    expectTypeOf<MamError['code']>().toEqualTypeOf<MamErrorCode>();
    expectTypeOf<UnknownAgentError['code']>().toEqualTypeOf<'UNKNOWN_AGENT'>();
    expectTypeOf<InvalidIdError['code']>().toEqualTypeOf<'INVALID_ID'>();
    expectTypeOf<'INVALID_ARGUMENT'>().toMatchTypeOf<MamErrorCode>();
    const e: unknown = new UnknownAgentError('x');
    if (isMamError(e)) expectTypeOf(e.code).toEqualTypeOf<MamErrorCode>();
  });
});
