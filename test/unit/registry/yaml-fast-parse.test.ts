import { describe, expect, it } from 'vitest';
import { fastParseYaml } from '../../../src/registry/yaml-fast-parse.js';
import { fullParseYaml } from '../../../src/registry/yaml-full-parse.js';

// What PyYAML's safe_dump(default_flow_style=False, sort_keys=False) writes for a registry.
const PYYAML = `orchestrator_uuids:
- e7800005-0000-4000-8000-000000000005
herdr_sessions:
- name: reviewer-claude-01
  status: running
  role: planner,reviewer
  agent: claude
  herdr_session_created_at: '2026-10-01T00:00:00Z'
  herdr_session_epoch: 1700000000
  claude_session_id_own: null
  session_id_verified: false
  pane:
    cwd: /abs/path
    pid: 4242
    cmd: claude
  tags:
  - a
  - - nested
    - list
  - k: v
    k2: []
  empty_map: {}
- name: other
  status: stopped
`;

describe('fastParseYaml', () => {
  it('reads the block style PyYAML writes exactly as the full parser does, with where each row\'s text is', () => {
    const fast = fastParseYaml(PYYAML);
    expect(fast?.value).toEqual(fullParseYaml(PYYAML));
    const rows = (fast?.rowSpans ?? []).map(([s, e]) => PYYAML.slice(s, e));
    expect(rows).toHaveLength(2);
    expect(rows[1]).toBe('- name: other\n  status: stopped');
    expect(rows[0]?.startsWith('- name: reviewer-claude-01\n')).toBe(true);
    expect(rows[0]?.endsWith('\n  empty_map: {}')).toBe(true);
  });

  it('reads indented sequences and compact items at any column', () => {
    const text = 'a:\n  - x\n  -   k: 1\n      j: 2\n  -\n    deep: true\nb: ~\n';
    expect(fastParseYaml(text)?.value).toEqual({ a: ['x', { k: 1, j: 2 }, { deep: true }], b: null });
  });

  it('leaves everything outside the subset to the full parser', () => {
    const outside = [
      'a: 1 # comment\n',
      '# comment\na: 1\n',
      'a: [1, 2]\n',
      'a: {b: 1}\n',
      'a: &x 1\nb: *x\n',
      'a: !!str 1\n',
      'a: |\n  text\n',
      'a: >\n  folded\n',
      'a: plain\n  continued\n',
      '---\na: 1\n',
      'a: 1\r\n',
      'a:\tb\n',
      'a: 1\na: 2\n',
      'a: 2026-10-01T00:00:00Z\n',
      'a: 0777\n',
      "a: 'multi\n  line'\n",
      '? complex\n: key\n',
      'yes: 1\n',
      '__proto__: 1\n',
      'just a scalar\n',
    ];
    for (const text of outside) expect(fastParseYaml(text), JSON.stringify(text)).toBeUndefined();
  });

  it('reads an empty or blank document as null', () => {
    expect(fastParseYaml('')?.value).toBeNull();
    expect(fastParseYaml('\n  \n')?.value).toBeNull();
  });

  it('keeps the order of keys as written', () => {
    const value = fastParseYaml('zeta: 1\nalpha: 2\nmid: 3\n')?.value as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['zeta', 'alpha', 'mid']);
  });
  it('finds a duplicate key however the keys before it were guessed from the previous mapping', () => {
    const rows = (second: string): string => `herdr_sessions:\n- name: a\n  x: 1\n  status: running\n- name: b\n${second}`;
    // The second row's keys: one unguessed (`status` where `x` was), then `status` again where it was guessed.
    expect(fastParseYaml(rows('  status: running\n  status: stopped\n'))).toBeUndefined();
    expect(fastParseYaml(rows('  x: 1\n  x: 2\n'))).toBeUndefined();
    expect(fastParseYaml(rows('  "x": 1\n  x: 2\n'))).toBeUndefined();
    expect(fastParseYaml(rows("  'status': 1\n  status: 2\n"))).toBeUndefined();
    expect(fastParseYaml(rows('  x: 1\n  status: stopped\n'))?.value).toEqual(fullParseYaml(rows('  x: 1\n  status: stopped\n')));
    // A quoted key's guess matches no later line, even one that is a control character away from it.
    const quoted = `herdr_sessions:\n- name: a\n  'k': 1\n- name: b\n  \0: 2\n`;
    expect(fastParseYaml(quoted)).toBeUndefined();
  });
});
