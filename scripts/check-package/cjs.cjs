// CommonJS consumer: require() both entries (require(esm)), use the test kit, and compare with import().
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const core = require('@mam/core');
const testing = require('@mam/core/testing');

(async () => {
  const problems = [];
  const esm = await import('@mam/core');
  if (process.env.MAM_CHECK_SAME_CLASS === '1' && esm.MamError !== core.MamError) problems.push('import and require give different MamError classes (dual-package hazard)');
  const dir = mkdtempSync(join(tmpdir(), 'mam-cjs-'));
  try {
    const herdr = await testing.installFakeHerdr(join(dir, 'bin'), { statePath: join(dir, 'herdr.json') });
    if (typeof herdr !== 'string') problems.push('installFakeHerdr gave no path');
    await testing.installFakeAgents(join(dir, 'bin'), { home: join(dir, 'home') });
  } catch (err) {
    problems.push(`test kit from require(): ${err && err.stack}`);
  }
  const ran = await core.nodePorts().proc.run(process.execPath, ['-e', 'process.stdout.write("hi")']);
  if (ran.stdout !== 'hi') problems.push(`proc.run (execa) from require() gave ${JSON.stringify(ran)}`);
  try {
    core.getAdapter('vim');
  } catch (err) {
    if (!esm.isMamError(err) || !core.isMamError(err) || err.code !== 'UNKNOWN_AGENT') problems.push(`isMamError missed ${err}`);
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log('cjs ok');
})();
