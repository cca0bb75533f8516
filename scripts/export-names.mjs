// The names an entry point exports, values and types alike, as TypeScript sees them (`import { … } from` can name each):
// used by `scripts/check-package.mjs` (the built `.d.ts` of the installed package) and test/unit/package (the sources).
// Usage: node scripts/export-names.mjs <file.ts | file.d.ts>  → one name a line, sorted.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** Every exported name of the module `file` (sorted), resolved with NodeNext rules. */
export function exportNames(file) {
  const ts = require('typescript');
  const program = ts.createProgram([file], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (source === undefined) throw new Error(`cannot read ${file}`);
  const symbol = checker.getSymbolAtLocation(source);
  if (symbol === undefined) return [];
  return checker.getExportsOfModule(symbol).map((s) => s.getName()).filter((n) => n !== 'default').sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = exportNames(process.argv[2]);
  process.stdout.write(`${names.join('\n')}\n`);
  process.stderr.write(`${names.length} names\n`);
}
