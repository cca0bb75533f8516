// Imports the built package by its own name, ESM and CommonJS, as a user would.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const esm = await import('@mam/core');
const esmTesting = await import('@mam/core/testing');
const cjs = require('@mam/core');
const cjsTesting = require('@mam/core/testing');

const names = (m) => Object.keys(m).filter((k) => k !== 'default').sort();
const problems = [];
if (names(esm).join() !== names(cjs).join()) problems.push('ESM and CJS builds export different names');
if (names(esmTesting).join() !== names(cjsTesting).join()) problems.push('ESM and CJS testing builds export different names');
for (const must of ['AGENT_NAMES', 'ownKey', 'MamError', 'nodePorts', 'sanitizeHerdrAgentName']) {
  if (!(must in esm)) problems.push(`@mam/core lacks ${must}`);
}
for (const must of ['FakeHerdr', 'FakeProcessTable', 'installFakeHerdr']) {
  if (!(must in esmTesting)) problems.push(`@mam/core/testing lacks ${must}`);
}
// One error class across both entry points: a fault injected by the test kit is a PortError of the main entry.
for (const [label, main, testing] of [['ESM', esm, esmTesting], ['CJS', cjs, cjsTesting]]) {
  const fs = new testing.RecordingFileSystem(new main.NodeFileSystem(), { failAt: { n: 1, code: 'EIO' } });
  const err = await fs.mkdir('/nonexistent-smoke-dir/x').catch((e) => e);
  if (!(err instanceof main.PortError) || err.code !== 'IoError') problems.push(`${label}: an injected fault is not a PortError of @mam/core`);
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`dist smoke: ${names(esm).length} exports from @mam/core, ${names(esmTesting).length} from @mam/core/testing (ESM = CJS)`);
