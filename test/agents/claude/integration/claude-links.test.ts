// Linked directories: a root that is itself a link is fine; a key dir (or any dir below a root) that links elsewhere is never
// followed: what lies behind it is reported as residual, and still counts as an artifact.
import { existsSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClaudeAdapter } from '../../../../src/agents/claude/claude-adapter.js';
import { claudeProjectKey } from '../../../../src/agents/claude/project-key.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { type ClaudeSandbox, freshId, makeClaudeSandbox, treeDigest, writeConversationArtifacts, writeTranscript } from '../../../helpers/adapter-claude-sandbox.js';
import { strs } from '../../../helpers/artifact-strings.js';

const claude = new ClaudeAdapter(nodePorts());
let sb: ClaudeSandbox;
beforeEach(async () => {
  sb = await makeClaudeSandbox();
});
afterEach(() => sb.dispose());

describe('ClaudeAdapter and linked directories', () => {
  it('a config root that is itself a link (dotfiles) is purged through the link', async () => {
    const id = freshId();
    const t = writeTranscript(sb, id);
    const own = writeConversationArtifacts(sb, id);
    const real = join(sb.root, 'dotfiles-claude');
    renameSync(sb.config, real);
    symlinkSync(real, sb.config);
    const purged = strs(await claude.purgeArtifacts(id, sb.ctx()));
    expect(purged).toEqual([...own, t]);
    expect(purged.every((p) => !existsSync(p))).toBe(true);
    expect(existsSync(join(real, 'projects', claudeProjectKey(sb.ws)))).toBe(true);
    expect(strs(await claude.residualArtifacts(id, sb.ctx()))).toEqual([]);
  });

  it('a key dir linking outside is not followed: its transcript and dir stay, are residual, and count as artifacts', async () => {
    const id = freshId();
    const outside = join(sb.root, 'outside');
    mkdirSync(join(outside, id), { recursive: true });
    writeFileSync(join(outside, `${id}.jsonl`), '{}\n');
    writeFileSync(join(outside, id, 'keep.txt'), 'keep');
    mkdirSync(join(sb.config, 'projects'), { recursive: true });
    const key = join(sb.config, 'projects', '-linked-key');
    symlinkSync(outside, key);
    const before = treeDigest(outside);

    expect(await claude.hasArtifacts(id, sb.ctx())).toBe(true);
    expect(strs(await claude.purgeArtifacts(id, sb.ctx()))).toEqual([]);
    expect(treeDigest(outside)).toEqual(before);
    expect(strs(await claude.residualArtifacts(id, sb.ctx()))).toEqual([join(key, id), join(key, `${id}.jsonl`)]);
    expect(await claude.hasArtifacts(id, sb.ctx())).toBe(true);
  });

  it('a config subdir or a tmp owner dir linking outside is not followed either', async () => {
    const id = freshId();
    const outside = join(sb.root, 'outside');
    mkdirSync(join(outside, 'env', id), { recursive: true });
    mkdirSync(join(outside, 'tmp-owner', '-k', id), { recursive: true });
    symlinkSync(join(outside, 'env'), join(sb.config, 'session-env'));
    symlinkSync(join(outside, 'tmp-owner'), join(sb.tmp, 'claude-0'));
    const t = writeTranscript(sb, id);
    const before = treeDigest(outside);
    expect(strs(await claude.purgeArtifacts(id, sb.ctx()))).toEqual([t]);
    expect(treeDigest(outside)).toEqual(before);
    expect(strs(await claude.residualArtifacts(id, sb.ctx()))).toEqual([join(sb.tmp, 'claude-0', '-k', id), join(sb.config, 'session-env', id)]);
  });

  it('a leaf that is a link is removed as the link alone', async () => {
    const id = freshId();
    const target = join(sb.root, 'precious.txt');
    writeFileSync(target, 'keep');
    mkdirSync(join(sb.config, 'debug'), { recursive: true });
    symlinkSync(target, join(sb.config, 'debug', `${id}.txt`));
    expect(strs(await claude.purgeArtifacts(id, sb.ctx()))).toEqual([join(sb.config, 'debug', `${id}.txt`)]);
    expect(existsSync(target)).toBe(true);
  });
});
