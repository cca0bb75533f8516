/** One layer of src/: its name, why it sits where it does, and its files (`dir/` a folder, `file.ts` one file). */
export interface Layer {
  name: string;
  why: string;
  paths: readonly string[];
}
/** A folder whose sub-folders are agents that must not import each other (`shared` sub-folders are open to all). */
export interface AgentRoot {
  dir: string;
  shared: readonly string[];
}
/** How a file names another: `import … from`, `import type`/`export type`, `import('…')`, `import '…'`. */
export type ImportKind = 'static' | 'type' | 'dynamic' | 'side-effect';
/** One importer → imported pair (posix paths under src/), with every way it is imported. */
export interface ImportEdge {
  from: string;
  to: string;
  kinds: ImportKind[];
}
/** The import graph of a set of files. */
export interface ImportGraph {
  files: string[];
  edges: ImportEdge[];
  unresolved: Array<{ from: string; spec: string }>;
}
/** The layers of src/, bottom to top. */
export const LAYERS: readonly Layer[];
/** The agent folders' roots. */
export const AGENT_ROOTS: readonly AgentRoot[];
/** The text with comments, template-literal bodies and every string but a specifier blanked (newlines kept). */
export function blankNonCode(text: string): string;
/** Every module specifier a TypeScript text names, with how. */
export function importSpecifiers(text: string): Array<{ spec: string; kind: ImportKind }>;
/** The file a relative specifier of `from` names (`x.js` → `x.ts`, a folder → its `index.ts`), or undefined. */
export function resolveSpecifier(from: string, spec: string, files: ReadonlySet<string>): string | undefined;
/** Every `.ts` file under `dir` (posix paths relative to it, sorted). */
export function listTsFiles(dir: string): string[];
/** The import graph of `sources` (posix path → text). */
export function buildGraph(sources: ReadonlyMap<string, string>): ImportGraph;
/** The import graph of the `.ts` files under `srcDir` (default: this repository's src/). */
export function graphOfDir(srcDir?: string): ImportGraph;
/** The strongly connected components with more than one file, or a file importing itself; each sorted. */
export function importCycles(graph: ImportGraph): string[][];
/** The index of a file's layer (longest matching path), or -1. */
export function layerOf(file: string, layers?: readonly Layer[]): number;
/** The files no layer names. */
export function unlayeredFiles(graph: ImportGraph, layers?: readonly Layer[]): string[];
/** The edges that import a higher layer than their own. */
export function upwardEdges(graph: ImportGraph, layers?: readonly Layer[]): Array<ImportEdge & { fromLayer: string; toLayer: string }>;
/** The agent folder a file lies in (`<root>/<name>`), or undefined. */
export function agentFolderOf(file: string, roots?: readonly AgentRoot[]): string | undefined;
/** The edges from one agent folder into another. */
export function crossAgentEdges(graph: ImportGraph, roots?: readonly AgentRoot[]): ImportEdge[];
/** One edge as text: `from -> to`. */
export function edgeText(e: { from: string; to: string }): string;
