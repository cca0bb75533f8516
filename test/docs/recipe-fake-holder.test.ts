// The README's test-kit recipe, verbatim below this comment (test/docs/readme-recipes.test.ts keeps the two equal).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PurgeService, artifactPath } from '@mam/core';
import { FakeProcessTable, buildSandbox } from '@mam/core/testing';
import { expect, it } from 'vitest';

it('purge refuses while a fake process holds it', async () => {
  await using sb = await buildSandbox(await mkdtemp(join(tmpdir(), 'recipe-')));
  const id = await sb.seed('codex'); // a finished Codex conversation on disk, as Codex leaves it; no process
  const opts = { home: sb.home, workspace: sb.workspace, env: sb.env };

  // What a purge would remove, as paths: artifactPath gives a file's path, or a database's for its rows.
  const plan = await new PurgeService({ ports: sb.ports() }).purge('codex', id, { ...opts, dryRun: true });
  if (plan.kind !== 'dry-run') throw new Error(`expected a dry run, got ${plan.kind}`);
  const rollout = plan.plan.artifacts.map(artifactPath).find((p) => p.endsWith(`-${id}.jsonl`));

  // A fake codex process holding the rollout open: the sandbox's real ports, but this process table.
  const proc = new FakeProcessTable([{ pid: 4242, argv: ['codex'], openFiles: [rollout ?? ''] }]);
  const purge = new PurgeService({ ports: { ...sb.ports(), proc } });
  const refused = await purge.purge('codex', id, opts);
  expect(refused).toMatchObject({ kind: 'in-use', agent: 'codex', inUse: true });
  expect(refused.kind === 'in-use' && refused.holders.map((h) => h.pid)).toContain(4242);

  proc.kill(4242); // stop the holder first: a purge never removes a conversation in use
  expect(await purge.purge('codex', id, opts)).toMatchObject({ kind: 'purged', agent: 'codex', inUse: false });
});
