// Discovery over the real homes: each workspace finds exactly its own conversations, newest first.
import { relative } from 'node:path';
import { getAdapter, nodePorts } from '../../src/index.js';
import type { RealHome } from './real-homes.js';
import { check, line, short } from './ui.js';

/** A workspace and the ids discovery found in it (newest first). */
export interface Found {
  home: RealHome;
  workspace: string;
  ids: string[];
}

/** Runs each adapter's `discover` on every workspace its home knows, and checks the result against EXPECTED.json. */
export async function discoverAll(homes: readonly RealHome[], root: string): Promise<Found[]> {
  const found: Found[] = [];
  for (const home of homes) {
    const { stage, agent } = home;
    const adapter = getAdapter(agent, { ports: nodePorts({ env: { ...process.env, ...stage.env } }) });
    const workspaces = [...new Set(stage.expected.conversations.map((c) => c.workspace).filter((w): w is string => w !== null))];
    for (const workspace of workspaces) {
      const ids = await adapter.discover({ workspace, home: stage.home, env: stage.env });
      const expected = stage.expected.conversations.filter((c) => c.workspace === workspace && c.status === 'present').map((c) => c.id);
      check(expected.every((id) => ids.includes(id)), `${agent} discover misses a conversation of ${workspace}`);
      const others = stage.expected.conversations.filter((c) => c.workspace !== workspace).map((c) => c.id);
      check(!ids.some((id) => others.includes(id)), `${agent} discover of ${workspace} returns another workspace's conversation`);
      const name = relative(root, workspace);
      line(`${agent.padEnd(8)} ${name.length > 40 ? `${name.slice(0, 39)}…` : name.padEnd(40)} → ${ids.map(short).join(', ') || 'nothing'}`);
      found.push({ home, workspace, ids });
    }
  }
  return found;
}
