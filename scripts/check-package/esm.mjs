// ESM consumer: import both entries, use them, and check the export lists against the pinned ones.
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import * as core from '@mam/core';
import * as testing from '@mam/core/testing';

const problems = [];
const expected = JSON.parse(readFileSync(new URL('./expected-exports.json', import.meta.url), 'utf8'));
const names = (m) => Object.keys(m).filter((k) => k !== 'default').sort();
const subpaths = await Promise.all(Object.keys(expected.subpaths).map(async (n) => [`@mam/core/${n}`, await import(`@mam/core/${n}`), expected.subpaths[n]]));
for (const [label, mod, want] of [['@mam/core', core, expected.core], ['@mam/core/testing', testing, expected.testing], ...subpaths]) {
  const got = names(mod);
  const extra = got.filter((n) => !want.includes(n));
  const missing = want.filter((n) => !got.includes(n));
  if (extra.length + missing.length > 0) problems.push(`${label} exports differ from the pinned list: extra ${extra.join(',') || '-'}; missing ${missing.join(',') || '-'}`);
}
// One class for ESM and CJS: require() of the package gives the very same module.
const cjs = createRequire(import.meta.url)('@mam/core');
// Under plain node, require() gives the very same module (require(esm)); a loader that compiles a second copy (tsx) must
// still see one brand: isMamError below recognises an error of either copy.
if (process.env.MAM_CHECK_SAME_CLASS === '1' && cjs.MamError !== core.MamError) problems.push('require and import give different MamError classes (dual-package hazard)');
try {
  core.getAdapter('vim');
  problems.push('getAdapter(vim) did not throw');
} catch (err) {
  if (!core.isMamError(err) || err.code !== 'UNKNOWN_AGENT') problems.push(`getAdapter(vim) threw ${err}`);
  if (!cjs.isMamError(err)) problems.push('the CJS isMamError does not recognise an ESM error');
}
try {
  cjs.getAdapter('vim');
} catch (err) {
  if (!core.isMamError(err)) problems.push('the ESM isMamError does not recognise a CJS error');
}
const home = mkdtempSync(join(tmpdir(), 'mam-esm-'));
const ids = await core.getAdapter('codex').discover({ workspace: home, home: home });
if (!Array.isArray(ids)) problems.push('discover did not give an array');
const ran = await core.nodePorts().proc.run(process.execPath, ['-e', 'process.stdout.write("hi")']);
if (ran.stdout !== 'hi') problems.push(`proc.run (execa, loaded lazily) gave ${JSON.stringify(ran)}`);
const r = await new core.PurgeService().purge('codex', '019a0000-0000-7000-8000-000000000000', { home });
if (r.kind === 'in-use' || (r.kind === 'purged' && r.purged.length > 0)) problems.push(`purge of an unknown id gave ${JSON.stringify(r)}`);
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`esm ok: ${names(core).length} + ${names(testing).length} exports`);
