// Type-checks README blocks with the project's compiler options, as a user's code importing `@mam/core` would be:
// each block is an in-memory module next to the tests, its imports pointing at the built package, the tour's variables declared.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { ReadmeBlock } from './readme-blocks.js';
import { resolveImports } from './readme-run.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// The built declarations (the tests' global setup builds dist/), as a user's compiler reads the installed package.
const ENTRY = { '@mam/core': '../../dist/index.js', '@mam/core/testing': '../../dist/testing/index.js' };
// On the block's first line, so line N of the module is README line block.line + N - 1.
const PRELUDE = 'declare const home: string, env: Record<string, string>, workspace: string, dir: string; ';

function compilerOptions(): ts.CompilerOptions {
  const configPath = join(ROOT, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  return { ...ts.parseJsonConfigFileContent(config, ts.sys, dirname(configPath)).options, noEmit: true };
}

/** The type errors of `blocks`, each as `README.md:<line>: <message>` (empty when they all compile). */
export function typecheckReadmeBlocks(blocks: readonly ReadmeBlock[]): string[] {
  const files = new Map<string, ReadmeBlock>();
  const texts = new Map<string, string>();
  for (const b of blocks) {
    const file = join(ROOT, 'test', 'docs', `readme-block-${b.line}.ts`);
    files.set(file, b);
    texts.set(file, `${PRELUDE}${resolveImports(b, b.code, ENTRY)}\nexport {};\n`);
  }
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (f) => texts.has(f) || fileExists.call(host, f);
  host.readFile = (f) => texts.get(f) ?? readFile.call(host, f);
  host.getSourceFile = (f, lang, ...rest) => {
    const text = texts.get(f);
    return text === undefined ? getSourceFile.call(host, f, lang, ...rest) : ts.createSourceFile(f, text, lang, true);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).flatMap((d) => {
    const block = d.file === undefined ? undefined : files.get(d.file.fileName);
    if (d.file === undefined || block === undefined) return [];
    const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    return [`README.md:${block.line + line}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`];
  });
}
