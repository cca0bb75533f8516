import { describe, expect, it } from 'vitest';
import { describeError, toPortError } from '../../../src/errors.js';
import { HerdrCli } from '../../../src/node/herdr-cli.js';
import type { HerdrProcessRunner } from '../../../src/node/herdr-process.js';

const nullProto = (): object => Object.create(null) as object;

describe('describeError', () => {
  it('an Error gives its message, a string itself, an object its string message, anything else String()', () => {
    expect(describeError(new TypeError('boom'))).toBe('boom');
    expect(describeError('plain')).toBe('plain');
    expect(describeError({ message: 'from an object' })).toBe('from an object');
    expect(describeError(Object.assign(nullProto(), { message: 'no prototype' }))).toBe('no prototype');
    expect([42, null, undefined, true, 10n, Symbol('s')].map(describeError)).toEqual(['42', 'null', 'undefined', 'true', '10', 'Symbol(s)']);
  });

  it('never throws: a null-prototype object, a throwing toString, a revoked proxy', () => {
    const throwing = { toString: () => { throw new Error('no'); } };
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const getter = Object.defineProperty(new Error('x'), 'message', { get: () => { throw new Error('no'); } });
    expect(() => String(nullProto())).toThrow();
    expect(describeError(nullProto())).toBe('[object]');
    expect(describeError(throwing)).toBe('[object]');
    expect(describeError(proxy)).toBe('[object]');
    expect(describeError(getter)).toBe('[object]');
  });

  it('toPortError wraps a null-prototype rejection (and a null-prototype errno code) without throwing', () => {
    expect(toPortError(nullProto(), 'fs.read', '/p')).toMatchObject({ code: 'Unknown', op: 'fs.read' });
    expect(toPortError(Object.assign(nullProto(), { code: nullProto() }), 'fs.read').message).toContain('[object]');
  });
});

describe('HerdrCli with a runner that rejects with no Error', () => {
  it.each([
    ['a null-prototype object', nullProto()],
    ['an object whose toString throws', { toString: () => { throw new Error('no'); } }],
    ['undefined', undefined],
  ])('%s is a transport error, never a throw', async (_l, value) => {
    const run: HerdrProcessRunner = () => Promise.reject(value);
    const cli = new HerdrCli({ run });
    await expect(cli.agentGet('a')).resolves.toMatchObject({ kind: 'transport_error' });
    await expect(cli.agentPresence('a')).resolves.toBe('unknown');
  });
});
