// isMamError(err, code): true only for that code, and `data` narrowed to that code's data (a second copy's error too).
import { describe, expect, expectTypeOf, it } from 'vitest';
import { isMamError, MamError, PortError, UnknownAgentError } from '../../../src/errors.js';
import type { RegistryFileRefusedData } from '../../../src/error-data.js';
import { RegistryIdClaimedError } from '../../../src/registry/registry-id-claimed-error.js';

describe('isMamError(err, code)', () => {
  const claimed = new RegistryIdClaimedError('rev', 'codex', '019a0000-0000-7000-8000-000000000001', 'orchestrator');

  it('is true for an error of that code and false for any other code or any non-MamError', () => {
    expect(isMamError(claimed, 'REGISTRY_ID_CLAIMED')).toBe(true);
    expect(isMamError(claimed, 'REGISTRY_CORRUPT')).toBe(false);
    expect(isMamError(new UnknownAgentError('vim'), 'REGISTRY_ID_CLAIMED')).toBe(false);
    expect(isMamError(Object.assign(new Error('x'), { code: 'REGISTRY_ID_CLAIMED', data: {} }), 'REGISTRY_ID_CLAIMED')).toBe(false);
    expect(isMamError(new PortError('NotFound', 'fs.stat', 'gone', { path: '/p' }), 'NotFound')).toBe(true);
  });

  it('recognises the code on an error of a second copy of the package', async () => {
    const specifier = '../../../src/errors.js?second-copy-code';
    const copy = (await import(/* @vite-ignore */ specifier)) as typeof import('../../../src/errors.js');
    expect(isMamError(new copy.UnknownAgentError('vim'), 'UNKNOWN_AGENT')).toBe(true);
    expect(isMamError(new copy.UnknownAgentError('vim'), 'INVALID_ID')).toBe(false);
  });

  it('narrows data by code', () => {
    const err: unknown = claimed;
    if (!isMamError(err, 'REGISTRY_ID_CLAIMED')) throw new Error('not narrowed');
    expectTypeOf(err.code).toEqualTypeOf<'REGISTRY_ID_CLAIMED'>();
    expectTypeOf(err.data).toEqualTypeOf<Readonly<{ row: string; agent: string; id: string; claimedBy: string }>>();
    expect(err.data.claimedBy).toBe('orchestrator');
    const other: unknown = new MamError('REGISTRY_FILE_REFUSED', 'x', { path: '/w/.mam', problem: 'symlink' });
    if (isMamError(other, 'REGISTRY_FILE_REFUSED')) expectTypeOf(other.data).toEqualTypeOf<Readonly<RegistryFileRefusedData>>();
    const port: unknown = new PortError('NotFound', 'fs.stat', 'gone', { path: '/p' });
    if (isMamError(port, 'NotFound')) expectTypeOf(port.data.op).toEqualTypeOf<string>();
    const any: unknown = claimed;
    if (isMamError(any)) expectTypeOf(any.data).toEqualTypeOf<Readonly<Record<string, unknown>>>();
  });
});
