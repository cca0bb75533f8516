import { describe, expect, it } from 'vitest';
import { AGENT_NAMES } from '../../../src/ids/agent-names.js';
import { agentCliName } from '../../../src/process/index.js';

const proc = (argv: string[] | undefined, comm = '', command = argv?.join(' ') ?? ''): { argv?: string[]; command: string; comm: string } =>
  argv === undefined ? { command, comm } : { argv, command, comm };

describe('agentCliName', () => {
  it('recognises each of the seven agents by its executable name', () => {
    for (const name of AGENT_NAMES) expect(agentCliName(proc([`/usr/local/bin/${name}`]))).toBe(name);
    expect(agentCliName(proc(['/usr/local/bin/qwen']))).toBeNull();
  });

  it.each([
    [['claude', '--resume', 'x'], 'claude'],
    [['/usr/local/bin/codex', 'resume'], 'codex'],
    [['/home/me/.local/bin/opencode'], 'opencode'],
    [['node', '/usr/local/bin/claude', '-r', 'x'], 'claude'],
    [['/usr/bin/node', '--no-warnings', '--require', '/x/hook.cjs', '/opt/bin/grok'], 'grok'],
    [['python3', '-X', 'utf8', '/home/me/.local/bin/hermes', 'chat'], 'hermes'],
    [['python3.12', '-u', '/usr/bin/hermes'], 'hermes'],
    [['bun', 'run', '/home/me/.bun/bin/opencode'], 'opencode'],
    [['/bin/sh', '/tmp/agent-bin/agy', '--conversation', 'x'], 'agy'],
    [['/usr/bin/env', 'FOO=1', 'node', '/usr/local/bin/claude'], 'claude'],
  ])('%j is %s', (argv, name) => {
    expect(agentCliName(proc(argv))).toBe(name);
  });

  it.each([
    [['node', '/work/mam/dist/cli.js', 'purge', 'claude']],
    [['node', '-e', 'code', '/usr/local/bin/claude']],
    [['python3', '-c', 'import x', 'claude']],
    [['sh', '-c', 'claude -r x; echo done']],
    [['bash', '/tmp/helper.sh', 'claude']],
    [['vim', 'claude']],
    [['claude-code']],
    [['CLAUDE']],
    [[]],
  ])('%j is not an agent CLI', (argv) => {
    expect(agentCliName(proc(argv))).toBeNull();
  });

  it('falls back on comm (a process that renamed its argv, or the kernel name of a script)', () => {
    expect(agentCliName(proc(['node', '--max-old-space-size=4096', '/x/cli.js'], 'claude'))).toBe('claude');
    expect(agentCliName(proc(undefined, '/usr/local/bin/agy', 'agy-renamed title'))).toBe('agy');
  });

  it('splits a ps command line when argv is unknown', () => {
    expect(agentCliName(proc(undefined, 'node', 'node /usr/local/bin/claude --resume x'))).toBe('claude');
    expect(agentCliName(proc(undefined, 'node', 'node /work/cli.js claude'))).toBeNull();
  });
});
