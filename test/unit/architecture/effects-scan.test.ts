import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../../src');

// Files that carry the text of a standalone executable (it runs in its own process, not in the library).
const SCRIPT_TEXT_FILES = new Set<string>([
  'testing/herdr/fake-herdr-script.ts',
  'testing/herdr/fake-herdr-proc-io.ts',
  'testing/agents/fake-agent-main.ts',
  // The fake herdr's loader: a string of script text that the installed executable runs.
  'testing/herdr/install-fake-herdr.ts',
]);

const FORBIDDEN: ReadonlyArray<[RegExp, string]> = [
  [/\bprocess\.env\b/, 'process.env'],
  [/\bhomedir\s*\(/, 'os.homedir()'],
  [/\bDate\.now\s*\(/, 'Date.now()'],
  [/new Date\(\s*\)/, 'new Date()'],
  [/from ['"](node:)?child_process['"]/, 'child_process'],
  [/from ['"]execa['"]/, 'execa'],
  [/\bconsole\.(log|error|warn|info|debug)\b/, 'console.*'],
];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('effects stay behind ports', () => {
  const files = walk(SRC).map((p) => relative(SRC, p));

  it('scans a real source tree', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(files).toContain('index.ts');
  });

  it('nothing outside src/node/ reads the environment, the real clock, or spawns', () => {
    const offences: string[] = [];
    for (const file of files) {
      if (file.startsWith('node/') || SCRIPT_TEXT_FILES.has(file)) continue;
      const text = readFileSync(join(SRC, file), 'utf8');
      for (const [re, what] of FORBIDDEN) if (re.test(text)) offences.push(`${file}: ${what}`);
    }
    expect(offences).toEqual([]);
  });

  it('the scan would catch an offence', () => {
    const sample = "import { execa } from 'execa';\nconst h = process.env.HOME;";
    expect(FORBIDDEN.filter(([re]) => re.test(sample)).map(([, w]) => w)).toEqual(['process.env', 'execa']);
  });
});
