import { isUtf8 } from 'node:buffer';
import { RegistryCorruptError } from './registry-corrupt-error.js';
import type { RegistryIssue } from './registry-issue.js';
import { type ValidatedDocument, validateDocument } from './validate-registry.js';
import { fastParseYaml } from './yaml-fast-parse.js';
import { describeError } from '../errors.js';
import type { AgentCatalog } from '../agents/outside-agents.js';


function yamlIssue(err: unknown): RegistryIssue {
  // The yaml package's YAMLError carries `linePos` (not imported here: the package is loaded only when needed).
  const linePos: unknown = typeof err === 'object' && err !== null && 'linePos' in err ? err.linePos : undefined;
  const first = Array.isArray(linePos) ? (linePos[0] as { line: number; col: number } | undefined) : undefined;
  const reason = ((describeError(err)).split('\n')[0] ?? '').replace(/:$/, '');
  return {
    problem: 'yaml',
    message: `invalid YAML: ${reason}`,
    ...(first === undefined ? {} : { line: first.line, column: first.col }),
  };
}

/**
 * The file's bytes as text, or a `RegistryCorruptError` when they are not UTF-8.
 * @public
 */
export function decodeRegistry(bytes: Uint8Array, path: string): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!isUtf8(buf)) throw new RegistryCorruptError(path, [{ problem: 'yaml', message: 'the file is not UTF-8 text' }]);
  // A byte-order mark is not content (the fast parser would leave such a file to the full one otherwise).
  const text = buf.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Parses and validates registry text; file-level problems always throw, row problems throw unless `lenient`. When the
 * rows were read by the fast parser, `rowSpans` says where each row's text is (index-aligned with the file's rows);
 * `agents` are the agents a row may name (the built-ins by default).
 * @public
 */
export async function parseRegistryText(text: string, path: string, opts: { lenient?: boolean; agents?: AgentCatalog<string> } = {}): Promise<ValidatedDocument & { rowSpans?: Array<[number, number]> }> {
  if (text.trim() === '') throw new RegistryCorruptError(path, [{ problem: 'empty', message: 'the file is empty' }]);
  let doc: unknown;
  const fast = fastParseYaml(text);
  if (fast !== undefined) doc = fast.value;
  else {
    try {
      // Loaded on demand: a registry this library wrote never needs it, and it costs every process ~50 ms to load.
      const { fullParseYaml } = await import('./yaml-full-parse.js');
      doc = fullParseYaml(text);
    } catch (err) {
      throw new RegistryCorruptError(path, [yamlIssue(err)], { cause: err });
    }
  }
  // What the fast parser returns is plain data by construction; the full parser's output is checked for Dates, Sets, ….
  const validated = validateDocument(doc, { plain: fast !== undefined, ...(opts.agents === undefined ? {} : { agents: opts.agents }) });
  const rowIssues = opts.lenient === true ? [] : validated.invalidRows.flatMap((r) => r.issues);
  const issues = [...validated.fileIssues, ...rowIssues];
  if (issues.length > 0) throw new RegistryCorruptError(path, issues);
  return fast?.rowSpans === undefined ? validated : { ...validated, rowSpans: fast.rowSpans };
}
