// G6: job records are written only by the engine. G4 (structural half): the shadow runner has no route to the engine or any
// record writer. G9: the pure policy imports nothing with effects, and the loop reaches only the parts it may.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const SRC = join(ROOT, 'src');

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Every module specifier a file imports or re-exports (static, dynamic, side-effect). */
function specifiers(text: string): string[] {
  const out: string[] = [];
  for (const re of [/\bfrom\s+['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g, /^\s*import\s+['"]([^'"]+)['"]/gm]) {
    for (const m of text.matchAll(re)) out.push(m[1] as string);
  }
  return out;
}

/** A relative specifier as the .ts file it names (repo-relative), or the bare specifier itself. */
function target(fromFile: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  return relative(ROOT, resolve(dirname(fromFile), spec.replace(/\.js$/, '.ts')));
}

/** The repo-relative files reachable from `entry` through relative imports, and the bare specifiers met on the way. */
function closure(entry: string): { files: Set<string>; bare: Set<string> } {
  const files = new Set<string>();
  const bare = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    for (const spec of specifiers(readFileSync(join(ROOT, file), 'utf8'))) {
      const t = target(join(ROOT, file), spec);
      if (spec.startsWith('.')) todo.push(t);
      else bare.add(t);
    }
  }
  return { files, bare };
}

const allFiles = [...walk(SRC), ...walk(join(ROOT, 'examples'))].map((p) => relative(ROOT, p));
const text = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

describe('G6: only the engine writes job records', () => {
  const WRITER = 'src/jobs/job-record-writer.ts';

  it('scans the real tree', () => {
    expect(allFiles).toContain('src/jobs/job-engine.ts');
    expect(allFiles).toContain(WRITER);
    expect(allFiles.length).toBeGreaterThan(50);
  });

  it('the record writer is imported and called by src/jobs/job-engine.ts alone', () => {
    const importers = allFiles.filter((f) => specifiers(text(f)).some((s) => s.startsWith('.') && target(join(ROOT, f), s) === WRITER));
    expect(importers).toEqual(['src/jobs/job-engine.ts']);
    const callers = allFiles.filter((f) => f !== WRITER && /\bwriteJobRecord\s*\(/.test(text(f)));
    expect(callers).toEqual(['src/jobs/job-engine.ts']);
  });

  it('no barrel re-exports the record writer, so no user of the package can reach it', () => {
    for (const barrel of ['src/jobs/index.ts', 'src/index.ts', 'src/testing/index.ts']) expect(text(barrel), barrel).not.toMatch(/job-record-writer|writeJobRecord/);
  });

  it('no other module builds a record path and writes with it', () => {
    const writes = /\bwriteFileAtomic\s*\(|\.writeFile\s*\(|\.rename\s*\(|\bwriteFileSync\s*\(/;
    const offenders = allFiles.filter((f) => !f.startsWith('src/jobs/') && /jobPaths\.record\s*\(/.test(text(f)) && writes.test(text(f)));
    expect(offenders).toEqual([]);
  });

  it('the checks would catch a bypass', () => {
    const sample = "import { writeJobRecord } from '../jobs/job-record-writer.js';\nawait writeJobRecord(fs, dir, rec);";
    expect(target(join(SRC, 'autopin/x.ts'), specifiers(sample)[0] as string)).toBe(WRITER);
    expect(/\bwriteJobRecord\s*\(/.test(sample)).toBe(true);
  });
});

describe('G4: the shadow runner holds no route to a write of the job registry', () => {
  const { files } = closure('src/loop/shadow-runner.ts');

  it('its import closure reaches neither the engine, the record writer, the jobs barrel nor the session registry', () => {
    expect(files.has('src/loop/shadow-policy.ts')).toBe(true);
    const forbidden = [...files].filter((f) => f === 'src/jobs/job-engine.ts' || f === 'src/jobs/job-record-writer.ts' || f === 'src/jobs/index.ts' || f === 'src/index.ts' || f.startsWith('src/registry/'));
    expect(forbidden).toEqual([]);
  });

  it('no file it can reach in src/loop names an engine method or a record writer', () => {
    const names = /\bJobEngine\b|\bupdateJobStatus\b|\bwriteJobRecord\b|\bpickPending\b|\bregisterJob\b|\bnextSeq\b|\.transition\s*\(/;
    const offenders = [...files].filter((f) => f.startsWith('src/loop/') && names.test(text(f)));
    expect(offenders).toEqual([]);
  });

  it('the closure walk follows imports (it would see the engine if the runner imported it)', () => {
    expect(closure('src/jobs/job-engine.ts').files.has('src/jobs/job-record-writer.ts')).toBe(true);
  });
});

describe('G9: layering of the loop and the jobs', () => {
  it('the pure policy imports only pure files of src/loop, and no module at all', () => {
    const { files, bare } = closure('src/loop/shadow-policy.ts');
    expect([...bare]).toEqual([]);
    expect([...files].filter((f) => !f.startsWith('src/loop/'))).toEqual([]);
    expect([...files].sort()).toEqual([
      'src/loop/check-attribution.ts', 'src/loop/dispatch-context.ts', 'src/loop/pane-matches-generation.ts',
      'src/loop/policy-evidence.ts', 'src/loop/policy-rules.ts', 'src/loop/policy-scenario.ts', 'src/loop/shadow-policy.ts',
    ]);
  });

  it('src/loop imports only itself, the ports, errors, atomic, the herdr name rule, resolvePorts, the job id rule and the argument checks', () => {
    // The loop's option checks live beside its options (src/loop/*); they use only the argument-check primitives: lazy zod,
    // src/validation/common-schemas.ts and workspace-args.ts (zod, InvalidArgumentError), no effect but one stat through the port.
    const allowed = (t: string): boolean =>
      t.startsWith('src/loop/') || t.startsWith('src/ports/') || t.startsWith('src/atomic/') ||
      ['src/errors.ts', 'src/herdr/sanitize.ts', 'src/node/node-ports.ts', 'src/jobs/job-id.ts', 'node:path', 'src/invalid-argument-error.ts', 'src/lazy-zod.ts', 'src/validation/common-schemas.ts', 'src/validation/workspace-args.ts'].includes(t);
    const offenders = allFiles
      .filter((f) => f.startsWith('src/loop/'))
      .flatMap((f) => specifiers(text(f)).map((s) => target(join(ROOT, f), s)).filter((t) => !allowed(t)).map((t) => `${f} -> ${t}`));
    expect(offenders).toEqual([]);
  });

  it('src/jobs imports nothing of the loop, the registry, the adapters or any operation', () => {
    const offenders = allFiles
      .filter((f) => f.startsWith('src/jobs/'))
      .flatMap((f) => specifiers(text(f)).map((s) => target(join(ROOT, f), s)).filter((t) => /^src\/(loop|registry|adapters|purge|reset|autopin)\//.test(t)).map((t) => `${f} -> ${t}`));
    expect(offenders).toEqual([]);
  });
});
