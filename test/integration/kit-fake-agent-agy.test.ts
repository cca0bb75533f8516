// The fake agy writes agy's real layout: its conversation database records the workspace, so the adapter finds an older
// conversation of the workspace after a newer one has replaced it in the cache, and GEMINI_HOME relocates the root.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgyAdapter } from '../../src/agents/agy/agy-adapter.js';
import { readAgyTrajectory } from '../../src/agents/agy/agy-trajectory.js';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { installFakeAgents } from '../../src/testing/agents/install-fake-agents.js';
import { type KitDir, kitDir, startAgent } from '../helpers/kit-temp.js';

let kit: KitDir;
beforeAll(async () => {
  kit = await kitDir('agy-real');
  await installFakeAgents(kit.bin, { home: kit.home });
});
afterAll(() => kit.dispose());

async function run(cwd: string, env = kit.env): Promise<string> {
  const r = await startAgent(join(kit.bin, 'agy'), [], { cwd, env });
  r.child.kill('SIGTERM');
  await r.exited;
  return r.id;
}

describe('fake agy on the real layout', () => {
  it('records the workspace in the conversation database; the older conversation stays discoverable', async () => {
    const ws = join(kit.root, 'ws ü#1');
    mkdirSync(ws);
    const older = await run(ws);
    await new Promise((r) => setTimeout(r, 60));
    const newer = await run(ws);
    const root = join(kit.home, '.gemini', 'antigravity-cli');
    expect(JSON.parse(readFileSync(join(root, 'cache', 'last_conversations.json'), 'utf8'))).toMatchObject({ [ws]: newer });
    expect(await readAgyTrajectory(new NodeFileSystem(), join(root, 'conversations', `${older}.db`))).toEqual({ recorded: true, workspaces: [ws], parent: null, depth: 0 });
    const agy = new AgyAdapter(kit.ports);
    const ctx = kit.ctx({ workspace: ws });
    expect(await agy.discover(ctx)).toEqual([newer, older]);
    expect(await agy.verifyArtifact(older, ctx, 'discover')).toBe(true);
    expect(readFileSync(join(root, 'history.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('honours GEMINI_HOME', async () => {
    const gemini = join(kit.root, 'gemini-home');
    const ws = join(kit.root, 'ws-gh');
    mkdirSync(ws);
    const env = { ...kit.env, GEMINI_HOME: gemini };
    const id = await run(ws, env);
    expect(existsSync(join(gemini, 'antigravity-cli', 'conversations', `${id}.db`))).toBe(true);
    expect(await new AgyAdapter(kit.ports).discover(kit.ctx({ workspace: ws, env }))).toEqual([id]);
  });
});
