// The files a real grok 1.0.5 wrote (test/fixtures/derived/grok/real-pond-fixture, captured on macOS, so the cwd is
// grok's canonical `/private/tmp/…`): the adapter reads them as they are.
import { chmodSync, cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrokAdapter } from '../../../../src/agents/grok/grok-adapter.js';
import { FakeProcessTable } from '../../../../src/testing/process/fake-process-table.js';
import { hashTree, portsWith } from '../../../helpers/adapter-agy-files.js';
import { GROK_FIXTURE } from '../../../helpers/adapter-grok-stage.js';
import { makeTempDir } from '../../../helpers/fs-temp.js';
import { strs } from '../../../helpers/artifact-strings.js';

let dir: string;
let dispose: () => Promise<void>;
let home: string;

const WS = '/private/tmp/grok-fixture/project';
const PLAIN = '01a0355c-099c-71d0-ac0c-a9efb1907c77';
const FORK = '01a0355c-8db1-7e50-a5c7-2201f4086118';
const PARENT = '01a0355c-9c5a-71e3-8b8a-253db47e0a24';
const CHILD = '01a0355c-aead-7641-8548-7eebefb15237';

function writable(p: string): void {
  chmodSync(p, statSync(p).isDirectory() ? 0o700 : 0o600);
  if (statSync(p).isDirectory()) for (const n of readdirSync(p)) writable(join(p, n));
}

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-grok-real-'));
  home = join(dir, 'home');
  cpSync(join(GROK_FIXTURE, 'real-pond-fixture'), join(home, '.grok'), { recursive: true });
  writable(join(home, '.grok'));
});
afterEach(() => dispose());

const grok = () => new GrokAdapter(portsWith(new FakeProcessTable([{ pid: 1, argv: ['init'] }])));
const ctx = () => ({ workspace: WS, home: home, env: {} });
const bucket = () => join(home, '.grok', 'sessions', '%2Fprivate%2Ftmp%2Fgrok-fixture%2Fproject');

describe('grok on files a real grok 1.0.5 wrote', () => {
  it('lists the visible sessions newest first (the fork is one, the subagent child is not), reading nothing it writes', async () => {
    const before = hashTree(home);
    expect(await grok().discover(ctx())).toEqual([PARENT, FORK, PLAIN]);
    expect(await grok().verifyArtifact(CHILD, ctx())).toBe(false);
    expect(hashTree(home)).toEqual(before);
  });

  it('purging the parent takes its subagent child (linked only by subagents/<child>/meta.json), not the fork', async () => {
    expect(strs(await grok().purgeArtifacts(PARENT, ctx()))).toEqual([join(bucket(), CHILD), join(bucket(), PARENT)]);
    expect(existsSync(join(bucket(), FORK))).toBe(true);
    expect(strs(await grok().residualArtifacts(PARENT, ctx()))).toEqual([]);
    expect(strs(await grok().mentions(PARENT, ctx()))).toEqual([join(bucket(), 'prompt_history.jsonl')]);
    expect(await grok().discover(ctx())).toEqual([FORK, PLAIN]);
  });
});
