// Every fault is a MamError subclass whose `code` is a literal type (STYLE: one error class per failure with a literal
// `code`), so a caller can narrow on it: each class declares `declare readonly code: '<CODE>'` and passes that code to super.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });
}

// The body of each `class X extends MamError { … }` of a file (up to the next top-level closing brace).
function subclasses(text: string): Array<{ name: string; body: string }> {
  return [...text.matchAll(/^export class (\w+) extends MamError \{\n([\s\S]*?)^\}/gm)].map((m) => ({ name: m[1] as string, body: m[2] as string }));
}

describe('MamError subclasses', () => {
  const found = walk(join(ROOT, 'src')).flatMap((file) => subclasses(readFileSync(file, 'utf8')).map((c) => ({ ...c, file: relative(ROOT, file) })));

  it('are found (the scan is not vacuous)', () => {
    expect(found.map((c) => c.name)).toEqual(expect.arrayContaining(['RegistryCorruptError', 'ResetSpecError', 'SqliteReadError']));
  });

  it('each declares its code as a literal type, the one it passes to MamError', () => {
    const bad = found.flatMap((c) => {
      const declared = /declare readonly code: (?:'[A-Z_]+'(?: \| '[A-Z_]+')*|[A-Z]\w*Code);/.exec(c.body);
      if (declared === null) return [`${c.file}: ${c.name} has no \`declare readonly code: '…'\` (nor a closed code type)`];
      const literals = [...declared[0].matchAll(/'([A-Z_]+)'/g)].map((m) => m[1] as string);
      const passed = /super\(\s*(?:'([A-Z_]+)'|(\w+))/.exec(c.body);
      if (passed?.[1] !== undefined && !literals.includes(passed[1])) return [`${c.file}: ${c.name} declares ${literals.join(' | ')} but passes ${passed[1]}`];
      return [];
    });
    expect(bad).toEqual([]);
  });
});
