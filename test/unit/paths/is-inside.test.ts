import { describe, expect, it } from 'vitest';
import { isInside } from '../../../src/paths/index.js';

describe('isInside', () => {
  it.each([
    ['/a/b', '/a/b', true],
    ['/a/b', '/a/b/c', true],
    ['/a/b/', '/a/b/c/d', true],
    ['/a/b', '/a/b/c/../d', true],
    ['/', '/anything', true],
    ['/a/b', '/a/bc', false],
    ['/a/b', '/a', false],
    ['/a/b', '/a/b/../c', false],
    ['/a/b', '/a/b/c/../../x', false],
    ['/a/b', 'a/b/c', false],
    ['a/b', '/a/b/c', false],
    ['/a/b', '/a/b/\0x', false],
  ])('isInside(%j, %j) is %s', (root, p, expected) => {
    expect(isInside(root, p)).toBe(expected);
  });
});
