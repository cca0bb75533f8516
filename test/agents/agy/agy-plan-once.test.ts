// A purge preview of an agy conversation planned its family (a survey of every conversation) once per hook — paths,
// rows, refusals and notes — about four times per preview. It is planned once now, with the same answer; calls outside
// a preview still plan afresh.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgyAdapter } from '../../../src/agents/agy/agy-adapter.js';
import { agyPaths } from '../../../src/agents/agy/agy-paths.js';
import { planAgyPurge } from '../../../src/agents/agy/agy-purge-plan.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { SpyFileSystem } from '../../helpers/adapter-codex-spy.js';
import { agyTree, freshId, portsWith } from '../../helpers/adapter-agy-files.js';
import { makeTempDir } from '../../helpers/fs-temp.js';

let dir: string;
let dispose: () => Promise<void>;
let home: string;
beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-agy-plan-once-'));
  home = join(dir, 'home');
  mkdirSync(home);
});
afterEach(() => dispose());

const self = { pid: 500, ppid: 1, argv: ['node', 'mam', 'purge'] };
const listings = (spy: SpyFileSystem, dirPath: string): number => spy.calls.filter((c) => c.op === 'readdir' && c.path === dirPath).length;

describe('agy planPurge', () => {
  it('surveys the conversations once per preview (was about 4×), with the same plan as before', async () => {
    const ids = [freshId(), freshId(), freshId()];
    for (const id of ids) agyTree(home, id);
    const spy = new SpyFileSystem(new NodeFileSystem());
    const a = new AgyAdapter(portsWith(new FakeProcessTable([{ pid: 1, argv: ['init'] }], { self }), spy));
    const ctx = { workspace: dir, home: home };
    const p = agyPaths(home, {});
    await planAgyPurge(spy, p, ids[0] as string);
    const once = listings(spy, p.conversations);
    expect(once).toBeGreaterThan(0);
    spy.calls.length = 0;
    // The preview also looks for mentions of the id (a fork's reference): that look is its own.
    await a.mentions(ids[0] as string, ctx);
    const mentions = listings(spy, p.conversations);
    spy.calls.length = 0;
    const plan = await a.planPurge(ids[0] as string, ctx);
    expect(listings(spy, p.conversations)).toBe(once + mentions);
    expect(plan.artifacts.length).toBeGreaterThan(0);
    expect(plan.refused).toEqual([]);
    // Outside a preview nothing is shared: two residual checks survey twice.
    spy.calls.length = 0;
    await a.residualArtifacts(ids[0] as string, ctx);
    await a.residualArtifacts(ids[0] as string, ctx);
    expect(listings(spy, p.conversations)).toBe(2 * once);
  });
});
