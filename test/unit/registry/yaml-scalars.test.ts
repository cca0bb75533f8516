import { describe, expect, it } from 'vitest';
import { FALLBACK, formatNumber, formatString, isPlainSafe, readQuoted, resolvePlain } from '../../../src/registry/yaml-scalars.js';

describe('registry YAML scalars', () => {
  it('writes names, roles, paths, uuids and herdr ids plain, as PyYAML does', () => {
    for (const s of ['reviewer-claude-01', 'planner,reviewer', '/abs/path', 'default', 'a7800001-0000-4000-8000-000000000001', '12345678-1234-4234-8234-123456789abc', 'herdr:s1', 'w1:p_name', 'hello world']) {
      expect(formatString(s), s).toBe(s);
    }
  });

  it('quotes every string a YAML 1.1 or 1.2 reader would take for something else', () => {
    const quoted = ['yes', 'No', 'ON', 'off', 'y', 'N', 'true', 'False', 'null', 'NULL', '~', '', '2026-10-01T00:00:00Z', '2026-10-01', '1:20', '0777', '0x1f', '1e3', '1.5', '.inf', '.nan', '-1', '=', '<<', 'a: b', 'a #b', 'trailing ', ' leading', 'a:', '- x', '#x', '@x', '`x', '!x', '&x', '*x', '[x]', '{x}', '%x', '|', '>'];
    for (const s of quoted) expect(isPlainSafe(s), s).toBe(false);
    expect(formatString('yes')).toBe("'yes'");
    expect(formatString("it's")).toBe("'it''s'");
    expect(formatString('2026-10-01T00:00:00Z')).toBe("'2026-10-01T00:00:00Z'");
  });

  it('double-quotes strings with control characters or line breaks, with YAML escapes', () => {
    expect(formatString('a\nb')).toBe('"a\\nb"');
    expect(formatString('tab\there')).toBe('"tab\\there"');
    expect(formatString('nul\0"\\')).toBe('"nul\\0\\"\\\\"');
    expect(formatString('\u2028\u0085\ufeff\u0001')).toBe('"\\L\\N\\ufeff\\x01"');
    // Printable non-ASCII text stays readable, single-quoted.
    expect(formatString('café ☕ 😀')).toBe("'café ☕ 😀'");
  });

  it('writes numbers PyYAML reads back as the same number', () => {
    expect(formatNumber(1700000000)).toBe('1700000000');
    expect(formatNumber(-0)).toBe('0');
    expect(formatNumber(1.5)).toBe('1.5');
    expect(formatNumber(1e-7)).toBe('1.0e-7');
    expect(formatNumber(1e21)).toBe('1.0e+21');
    expect(formatNumber(1.25e300)).toBe('1.25e+300');
    expect(formatNumber(Number.NaN)).toBe('.nan');
    expect(formatNumber(-Infinity)).toBe('-.inf');
  });

  it('resolves plain scalars as PyYAML does, and leaves the rest to the full parser', () => {
    expect(resolvePlain('')).toBeNull();
    expect(resolvePlain('~')).toBeNull();
    expect(resolvePlain('Yes')).toBe(true);
    expect(resolvePlain('OFF')).toBe(false);
    expect(resolvePlain('y')).toBe('y');
    expect(resolvePlain('42')).toBe(42);
    expect(resolvePlain('-1.5e+3')).toBe(-1500);
    expect(resolvePlain('-.inf')).toBe(-Infinity);
    expect(resolvePlain('claude')).toBe('claude');
    expect(resolvePlain('a7800001-0000-4000-8000-000000000001')).toBe('a7800001-0000-4000-8000-000000000001');
    for (const s of ['2026-10-01T00:00:00Z', '0777', '1:20', '1e3', '+x', '.5x']) expect(resolvePlain(s), s).toBe(FALLBACK);
  });

  it('reads quoted scalars that close on their line, with every escape the emitter writes', () => {
    expect(readQuoted("'it''s' rest", 0)).toEqual({ value: "it's", end: 7 });
    expect(readQuoted('"a\\tb\\x41\\u00e9\\U0001F600\\N\\_\\/"', 0)).toEqual({ value: 'a\tbAé😀\u0085\u00a0/', end: 32 });
    expect(readQuoted("'open", 0)).toBe(FALLBACK);
    expect(readQuoted('"bad \\q"', 0)).toBe(FALLBACK);
  });
});
