// Plain JS through the built package: a relative workspace or registry dir (which the library would once have resolved
// against the current directory) is refused with one typed error, code INVALID_ARGUMENT, naming the parameter — and
// nothing is created in the current directory.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobEngine, ResetPlanner, isMamError } from '@mam/core';

const problems = [];
process.chdir(mkdtempSync(join(tmpdir(), 'mam-invalid-args-')));

function refused(label, param, make) {
  let err = null;
  try {
    make();
  } catch (e) {
    err = e;
  }
  if (err === null) problems.push(`${label}: nothing was thrown`);
  else if (!isMamError(err) || err.code !== 'INVALID_ARGUMENT') problems.push(`${label}: threw ${String(err)} (code ${String(err?.code)}), not INVALID_ARGUMENT`);
  else if (err.data?.param !== param) problems.push(`${label}: names ${JSON.stringify(err.data?.param)}, not ${param}`);
}

refused('new ResetPlanner("ws")', 'workspace', () => new ResetPlanner('ws'));
refused('new ResetPlanner(undefined)', 'workspace', () => new ResetPlanner(undefined));
refused('new JobEngine(".mam/jobs")', 'registryDir', () => new JobEngine('.mam/jobs'));
refused('new JobEngine("/w/.mam/jobs", { lockTimeoutMs: NaN })', 'opts.lockTimeoutMs', () => new JobEngine('/w/.mam/jobs', { lockTimeoutMs: Number.NaN }));
if (existsSync('ws') || existsSync('.mam')) problems.push('a relative path was created in the current directory');

if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write('INVALID_ARGUMENT from plain JS: ok\n');
