// Plain JS against the built package: the arguments a user gets wrong without types meet one typed fault —
// UNKNOWN_AGENT for a name that is no agent, INVALID_ARGUMENT naming the parameter for everything else — and nothing is
// created on disk; the former `homeDir` spelling still works.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAdapter, isMamError, PurgeService, SessionRegistry } from '@mam/core';

const problems = [];
const root = mkdtempSync(join(tmpdir(), 'mam-invalid-args-'));
const home = join(root, 'home');
const file = join(root, 'a-file');
mkdirSync(home);
writeFileSync(file, 'x');
const cwdBefore = readdirSync(process.cwd()).sort().join('\n');

async function expectFault(label, code, param, call) {
  try {
    await call();
    problems.push(`${label}: did not throw`);
  } catch (err) {
    if (!isMamError(err)) problems.push(`${label}: threw a non-MamError ${err}`);
    else if (err.code !== code) problems.push(`${label}: code ${err.code}, expected ${code}`);
    else if (param !== undefined && err.data?.param !== param) problems.push(`${label}: param ${err.data?.param}, expected ${param}`);
  }
}

const ID = '019a0000-0000-7000-8000-000000000000';
await expectFault("getAdapter('CLAUDE')", 'UNKNOWN_AGENT', undefined, () => getAdapter('CLAUDE'));
await expectFault('getAdapter(42)', 'INVALID_ARGUMENT', 'name', () => getAdapter(42));
await expectFault("getAdapter('codex', { ports: 'x' })", 'INVALID_ARGUMENT', 'opts.ports', () => getAdapter('codex', { ports: 'x' }));
const codex = getAdapter('codex');
await expectFault('discover with a relative workspace', 'INVALID_ARGUMENT', 'ctx.workspace', () => codex.discover({ workspace: 'rel', home }));
await expectFault('discover(undefined)', 'INVALID_ARGUMENT', 'ctx', () => codex.discover(undefined));
await expectFault('discover with a relative home', 'INVALID_ARGUMENT', 'ctx.home', () => codex.discover({ workspace: home, home: 'rel/home' }));
await expectFault('discover with a home that is a file', 'INVALID_ARGUMENT', 'ctx.home', () => codex.discover({ workspace: home, home: file }));
await expectFault('discover with a missing home (homeDir)', 'INVALID_ARGUMENT', 'ctx.homeDir', () => codex.discover({ workspace: home, homeDir: join(root, 'nope') }));
await expectFault('purgeArtifacts(42, ctx)', 'INVALID_ARGUMENT', 'id', () => codex.purgeArtifacts(42, { workspace: home, home }));
await expectFault('a purge through a relative home', 'INVALID_ARGUMENT', 'opts.home', () => new PurgeService().purge('codex', ID, { home: 'relative/home' }));
await expectFault('a registry of a relative workspace', 'INVALID_ARGUMENT', 'workspace', () => new SessionRegistry('typo/ws'));
await expectFault('an update of a workspace that does not exist', 'INVALID_ARGUMENT', 'workspace', () => new SessionRegistry(join(root, 'typo', 'ws')).update(() => 0));
// What stays a value: the former spelling, and an implausible id.
const ids = await codex.discover({ workspace: home, homeDir: home });
if (!Array.isArray(ids)) problems.push(`discover with homeDir gave ${JSON.stringify(ids)}`);
const none = await codex.purgeArtifacts('../etc', { workspace: home, home });
if (!Array.isArray(none) || none.length !== 0) problems.push(`purgeArtifacts of an implausible id gave ${JSON.stringify(none)}`);
const after = readdirSync(root).sort().join(',');
if (after !== 'a-file,home') problems.push(`something was created: ${after}`);
if (readdirSync(home).length !== 0) problems.push(`the home was written: ${readdirSync(home).join(',')}`);
if (readdirSync(process.cwd()).sort().join('\n') !== cwdBefore) problems.push('the current directory changed');
rmSync(root, { recursive: true, force: true });
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('invalid arguments ok');
