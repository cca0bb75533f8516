// The README's quick start, as a user meets it: the file name its text says to save the block as, the command it says
// to run, the code, and what a run must print. Shared by test/docs/readme-quickstart.test.ts (from the sources) and
// scripts/check-package.mjs (from the packed tarball), so both run the same block and judge its output alike.

/** The quick start of `readme`: `{ file, command, code }`; throws naming what is missing. */
export function readmeQuickStart(readme) {
  const section = /^## Quick start\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1];
  if (section === undefined) throw new Error('README.md has no "## Quick start" section');
  const file = /Save (?:this|it) as `([^`]+)`/.exec(section)?.[1];
  if (file === undefined) throw new Error('the quick start does not say which file to save its code as ("Save this as `…`")');
  const command = /run it with\s+`([^`]+)`/.exec(section)?.[1];
  if (command === undefined) throw new Error('the quick start does not say how to run it ("run it with `…`")');
  if (command.split(/\s+/).at(-1) !== file) throw new Error(`the quick start saves ${file} but runs \`${command}\``);
  const code = /^```ts[^\n]*\n([\s\S]*?)^```/m.exec(section)?.[1];
  if (code === undefined) throw new Error('the quick start has no ```ts block');
  return { file, command, code };
}

/**
 * Why `stdout` of a quick start run is not the result the README promises (null when it is): two conversations
 * discovered, one verified and purged with at least one artifact removed, the other left alone.
 */
export function quickStartOutputProblem(stdout) {
  const lines = stdout.split('\n');
  const discovered = lines.filter((l) => l.startsWith('discover:')).map((l) => l.slice('discover:'.length).split(' ').filter(Boolean));
  const [before, after] = discovered;
  if (discovered.length !== 2 || before === undefined || after === undefined) return `expected two "discover:" lines, got ${discovered.length}`;
  if (before.length !== 2) return `the first discover found ${before.length} conversation(s), not 2`;
  if (!lines.includes('verifyArtifact: true')) return 'no "verifyArtifact: true" line';
  if (!lines.includes('purge: purged')) return 'no "purge: purged" line';
  if (!lines.some((l) => l.startsWith('  removed /'))) return 'the purge listed nothing removed';
  if (after.length !== 1 || after[0] !== before[0]) return `after the purge discover gave ${JSON.stringify(after)}, not the newer conversation ${before[0]}`;
  return null;
}
