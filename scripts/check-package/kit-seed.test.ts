// A downstream project's tests over Sandbox.seed and `await using`, run by vitest from the tarball (with the README's
// recipe, copied in beside it as recipe-fake-holder.test.ts). check-package requires each file to finish under 5 s.
import { mkdirSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { AGENT_NAMES, getAdapter } from '@mam/core';
import { buildSandbox } from '@mam/core/testing';

it('await using + seed: one finished conversation per agent, each discovered in its workspace; the sandbox goes', async () => {
  let dir = '';
  {
    await using sb = await buildSandbox(await mkdtemp(join(tmpdir(), 'mam-seed-')));
    dir = sb.dir;
    for (const agent of AGENT_NAMES) {
      const workspace = join(sb.workspace, agent);
      mkdirSync(workspace);
      const id = await sb.seed(agent, { workspace });
      expect(await getAdapter(agent, { ports: sb.ports() }).discover(sb.context({ workspace })), agent).toEqual([id]);
    }
  }
  const { existsSync } = await import('node:fs');
  expect(existsSync(dir)).toBe(false);
});
