// One adapter set per Ports: the same instance per agent for the same resolved ports, a fresh one for a purge, a new set
// for other ports; a partial ports object always resolves to the same Ports.
import { describe, expect, it } from 'vitest';
import { adaptersOf } from '../../src/agents/adapters-of.js';
import { getAdapter } from '../../src/agents/get-adapter.js';
import { AGENT_NAMES } from '../../src/ids/agent-names.js';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { resolvePorts } from '../../src/node/node-ports.js';
import { FakeClock } from '../../src/testing/fs/fake-clock.js';
import { FakeHerdr } from '../../src/testing/herdr/fake-herdr.js';
import { FakeProcessTable } from '../../src/testing/process/fake-process-table.js';

const portsOf = () => ({ fs: new NodeFileSystem(), proc: new FakeProcessTable([]), herdr: new FakeHerdr(), clock: new FakeClock() });

describe('adaptersOf', () => {
  it('gives the same adapter instance per agent for the same ports, every time', () => {
    const ports = portsOf();
    for (const name of AGENT_NAMES) {
      const a = adaptersOf(ports).get(name);
      expect(a.name).toBe(name);
      expect(adaptersOf(ports).get(name)).toBe(a);
    }
    expect(adaptersOf(ports)).toBe(adaptersOf(ports));
    expect(adaptersOf(ports).ports).toBe(ports);
  });

  it('gives other instances for other ports, and a new one from fresh() (a purge keeps its memory to itself)', () => {
    const a = portsOf();
    const b = portsOf();
    expect(adaptersOf(a).get('codex')).not.toBe(adaptersOf(b).get('codex'));
    const fresh = adaptersOf(a).fresh('codex');
    expect(fresh).not.toBe(adaptersOf(a).get('codex'));
    expect(fresh.name).toBe('codex');
  });

  it('shares the set of a partial ports object (it resolves to one Ports), and getAdapter still builds a new adapter', () => {
    const partial = { fs: new NodeFileSystem(), proc: new FakeProcessTable([]) };
    expect(resolvePorts(partial)).toBe(resolvePorts(partial));
    expect(resolvePorts(partial).fs).toBe(partial.fs);
    expect(adaptersOf(partial).get('claude')).toBe(adaptersOf(partial).get('claude'));
    expect(resolvePorts({})).not.toBe(resolvePorts({}));
    const ports = portsOf();
    expect(getAdapter('claude', { ports })).not.toBe(getAdapter('claude', { ports }));
  });

  it('refuses an unknown agent name with UNKNOWN_AGENT (a typo fails to compile; plain JS fails at run time)', () => {
    // @ts-expect-error -- get takes an AgentName
    expect(() => adaptersOf(portsOf()).get('CLAUDE')).toThrow(expect.objectContaining({ code: 'UNKNOWN_AGENT' }));
    // @ts-expect-error -- fresh takes an AgentName
    expect(() => adaptersOf(portsOf()).fresh('nope')).toThrow(expect.objectContaining({ code: 'UNKNOWN_AGENT' }));
  });
});
