// OpenCode's verifyMany reads the rows first and resolves a workspace only when a top-level row names another directory
// than the workspace as given: each such workspace once per batch, none for rows that name it as given. A workspace
// reached through a link still verifies a session OpenCode recorded under its real path; a child session never does.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpencodeAdapter } from '../../../../src/agents/opencode/opencode-adapter.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import type { FileSystemPort } from '../../../../src/ports/fs.js';
import { withReadScope } from '../../../../src/sqlite/read-scope.js';
import { sesId, v1Schema, v1SessionSql, writeDb } from '../../../helpers/adapter-opencode-db.js';

let root: string;
let home: string;
let real: string;
let link: string;
let other: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-oc-once-')));
  home = join(root, 'home');
  real = join(root, 'real');
  other = join(root, 'other');
  link = join(root, 'link');
  for (const d of [join(home, '.local/share/opencode'), real, other, join(root, 'bin')]) mkdirSync(d, { recursive: true });
  symlinkSync(real, link);
  const T = 1_796_000_000_000;
  writeDb(join(home, '.local/share/opencode/opencode.db'), [
    ...v1Schema(),
    ...[1, 2, 3].flatMap((k) => v1SessionSql({ id: sesId(k), directory: real, created: T + k })),
    ...v1SessionSql({ id: sesId(4), directory: other, created: T + 4 }),
    ...v1SessionSql({ id: sesId(5), directory: real, created: T + 5, parent: sesId(1) }),
  ]);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function counted(): { fs: FileSystemPort; realpaths: string[] } {
  const base = nodePorts().fs;
  const realpaths: string[] = [];
  const fs = new Proxy(base, {
    get(target, key) {
      const v = Reflect.get(target, key) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if (key === 'realpath') realpaths.push(String(args[0]));
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as FileSystemPort;
  return { fs, realpaths };
}

describe('opencode verifyMany resolves each workspace at most once, and only when needed', () => {
  it('no realpath for rows naming the workspace as given; one per linked or other workspace', async () => {
    const { fs, realpaths } = counted();
    const oc = new OpencodeAdapter({ ...nodePorts(), fs });
    const ctx = { workspace: real, home, env: { HOME: home, PATH: join(root, 'bin') } };
    const got = await withReadScope(() =>
      oc.verifyMany(
        [
          { id: sesId(1) },
          { id: sesId(2) },
          { id: sesId(3), workspace: link },
          { id: sesId(1), workspace: link },
          { id: sesId(4), workspace: link },
          { id: sesId(2), workspace: other },
          { id: sesId(5) },
          { id: sesId(9) },
        ],
        ctx,
      ),
    );
    expect(got).toEqual([true, true, true, true, false, false, false, false]);
    expect(realpaths.filter((p) => p === real)).toEqual([]);
    expect(realpaths.filter((p) => p === link)).toHaveLength(1);
    expect(realpaths.filter((p) => p === other)).toHaveLength(1);
    // verifyArtifact gives the same answers.
    const one = await Promise.all([
      oc.verifyArtifact(sesId(3), { ...ctx, workspace: link }),
      oc.verifyArtifact(sesId(4), { ...ctx, workspace: link }),
      oc.verifyArtifact(sesId(5), ctx),
    ]);
    expect(one).toEqual([true, false, false]);
  });
});
