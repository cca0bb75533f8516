// Named profiles are searched too (and say where an id was found); links in the Hermes tree are never followed.
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HermesAdapter } from '../../../src/agents/hermes/hermes-adapter.js';
import { nodePorts } from '../../../src/node/node-ports.js';
import { IDS, materializeHermesStage } from '../../helpers/adapter-hermes-real.js';
import { makeTempDir } from '../../helpers/fs-temp.js';
import { strs } from '../../helpers/artifact-strings.js';

let dir: string;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-hermes-profiles-'));
});
afterEach(() => dispose());

const hermes = () => new HermesAdapter(nodePorts({ env: {} }));

/** Stage 01 as the named profile `work` of `<dir>/home`; the default store holds nothing. */
function asProfile() {
  const s = materializeHermesStage('01-two-sessions', dir);
  const base = join(dir, 'home', '.hermes');
  mkdirSync(join(base, 'profiles'), { recursive: true });
  const work = join(base, 'profiles', 'work');
  renameSync(s.hermesHome, work);
  return { ...s, work, ctx: { workspace: s.wsA, home: join(dir, 'home'), env: {} } };
}

describe('hermes profiles', () => {
  it('a session of a named profile is discovered, verified, located and purged there, and the notes say which profile', async () => {
    const s = asProfile();
    const h = hermes();
    expect(await h.discover(s.ctx)).toEqual([IDS.a2, IDS.a1]);
    expect(await h.verifyArtifact(IDS.a1, s.ctx)).toBe(true);
    expect(await h.profileOf(IDS.a1, s.ctx)).toBe('work');
    const purged = strs(await h.purgeArtifacts(IDS.a1, s.ctx));
    expect(purged).toContain(join(s.work, 'sessions', `session_${IDS.a1}.json`));
    expect(purged).toContain(`${join(s.work, 'state.db')} (sessions.id: 1 rows)`);
    expect(await h.purgeNotes(IDS.a1, s.ctx)).toContain(`${IDS.a1}: found in Hermes profile work (${join(s.work, 'state.db')})`);
    expect(strs(await h.residualArtifacts(IDS.a1, s.ctx))).toEqual([]);
    expect(await h.profileOf(IDS.a1, s.ctx)).toBeNull();
  });

  it('HERMES_HOME naming the profile is the active store, still called by its name', async () => {
    const s = asProfile();
    expect(await hermes().profileOf(IDS.a2, { ...s.ctx, env: { HERMES_HOME: s.work } })).toBe('work');
  });

  it('a profile that is a link is not searched; an unreadable default store does not hide a profile', async () => {
    const s = asProfile();
    renameSync(s.work, join(dir, 'elsewhere'));
    symlinkSync(join(dir, 'elsewhere'), s.work);
    expect(await hermes().discover(s.ctx)).toEqual([]);
    expect(strs(await hermes().residualArtifacts(IDS.a1, s.ctx))).toEqual([]);
    renameSync(join(dir, 'elsewhere'), join(dir, 'real-work'));
    const t = asProfileAgain(s.work, join(dir, 'real-work'));
    writeFileSync(join(dir, 'home', '.hermes', 'state.db'), 'garbage, not sqlite');
    expect(await hermes().discover(s.ctx)).toEqual([IDS.a2, IDS.a1]);
    const residual = strs(await hermes().residualArtifacts(IDS.a1, s.ctx));
    expect(residual).toContainEqual(expect.stringMatching(/home\/\.hermes\/state\.db \(unreadable: /));
    expect(residual).toContain(`${join(t, 'state.db')} (sessions.id: 1 rows)`);
  });

  it('a per-session file that is a link is removed as a link: its target is never touched', async () => {
    const s = materializeHermesStage('01-two-sessions', dir);
    const outside = join(dir, 'outside.json');
    writeFileSync(outside, 'keep me');
    const snap = join(s.hermesHome, 'sessions', `session_${IDS.a1}.json`);
    renameSync(snap, join(dir, 'moved.json'));
    symlinkSync(outside, snap);
    strs(await hermes().purgeArtifacts(IDS.a1, s.ctx));
    expect(existsSync(snap)).toBe(false);
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
    expect(strs(await hermes().residualArtifacts(IDS.a1, s.ctx))).toEqual([]);
  });

  it('a sessions/ dir that is a link: nothing behind it is removed, and it stays residual', async () => {
    const s = materializeHermesStage('01-two-sessions', dir);
    const real = join(dir, 'real-sessions');
    renameSync(join(s.hermesHome, 'sessions'), real);
    symlinkSync(real, join(s.hermesHome, 'sessions'));
    strs(await hermes().purgeArtifacts(IDS.a1, s.ctx));
    expect(existsSync(join(real, `session_${IDS.a1}.json`))).toBe(true);
    expect(strs(await hermes().residualArtifacts(IDS.a1, s.ctx))).toEqual([join(s.hermesHome, 'sessions', `session_${IDS.a1}.json`)]);
  });
});

function asProfileAgain(link: string, real: string): string {
  // Replace the link by the real directory again.
  renameSync(link, `${link}.gone`);
  renameSync(real, link);
  return link;
}

describe('hermes: a database that must not be written', () => {
  it('a hard-linked state.db is refused before any write: rows stay, the residual says why, nothing throws', async () => {
    const s = materializeHermesStage('01-two-sessions', dir);
    linkSync(s.db, join(dir, 'second-name.db'));
    const before = readFileSync(s.db);
    const h = hermes();
    const purged = strs(await h.purgeArtifacts(IDS.a1, s.ctx));
    expect(purged.filter((p) => p.includes('rows)'))).toEqual([]);
    expect(readFileSync(s.db).equals(before)).toBe(true);
    const residual = strs(await h.residualArtifacts(IDS.a1, s.ctx));
    expect(residual).toContain(`${s.db} (sessions.id: 1 rows)`);
    expect(residual).toContainEqual(expect.stringContaining('has 2 hard links'));
  });

  it.each(['../x', '', 'memory', '20261201_125014_1bb5bb/..', '20261201_125014_1bb5bb\0'])('the hostile id %j reaches nothing and throws nothing', async (bad) => {
    const s = materializeHermesStage('01-two-sessions', dir);
    const h = hermes();
    expect(strs(await h.purgeArtifacts(bad, s.ctx))).toEqual([]);
    expect(strs(await h.residualArtifacts(bad, s.ctx))).toEqual([]);
    expect(strs(await h.mentions(bad, s.ctx))).toEqual([]);
    expect(await h.purgeNotes(bad, s.ctx)).toEqual([]);
    expect(await h.currentId(bad, s.ctx)).toBeNull();
    expect(await h.profileOf(bad, s.ctx)).toBeNull();
    expect(strs(await h.residualArtifacts(IDS.a1, s.ctx))).toHaveLength(4);
  });
});
