// The import graph of src/: every relative `import … from`, `import type …`, `export … from`, side-effect `import '…'` and
// dynamic `import('…')` (type positions included), resolved to files; its cycles (Tarjan's strongly connected components)
// and the edges that break the layering (LAYERS, bottom to top) or join two agent folders.
// Used by test/unit/architecture/layers.test.ts. Plain Node, no dependency.
// Usage: node scripts/import-graph.mjs [--json]  → the cycles and violations of src/ (exit 1 when there is any).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The layers of src/, bottom to top: a file may import its own layer or a lower one, never a higher one. Each entry
 * names its files by path under src/ (`dir/` for a folder, `file.ts` for one file); the longest matching path wins.
 */
export const LAYERS = [
  {
    name: 'core',
    why: 'primitives with no effect: errors, error data, the argument error, exhaustiveness, abort, lazy zod and crypto, mapLimit',
    paths: ['errors.ts', 'error-data.ts', 'invalid-argument-error.ts', 'assert-never.ts', 'abort.ts', 'lazy-zod.ts', 'lazy-crypto.ts', 'map-limit.ts'],
  },
  { name: 'ports', why: 'the port interfaces', paths: ['ports/'] },
  {
    name: 'checks',
    why: 'argument-check primitives: the shared schemas, the option helpers, the low-level argument lists',
    paths: ['validation/common-schemas.ts', 'validation/workspace-args.ts', 'validation/low-level-args.ts', 'validation/plainly-valid-queries.ts'],
  },
  {
    name: 'vocabulary',
    why: 'the artifact records every agent and the SQLite helpers speak (in purge/ today; issue 32 moves them into the agent contract)',
    paths: ['purge/artifact.ts', 'purge/purge-fault.ts'],
  },
  {
    name: 'effects',
    why: 'the two process-wide effects the lock and the SQLite helpers need (the SQLite URI switch, the sync regular-file check): in node/, the only place effects may live',
    paths: ['node/sqlite-uri.ts', 'node/regular-or-absent.ts'],
  },
  {
    name: 'helpers',
    why: 'pure helpers over the ports (herdr: the CLI command port and its output schemas; cache: the one fact cache)',
    paths: ['paths/', 'atomic/', 'sqlite/', 'process/', 'herdr/', 'cache/'],
  },
  { name: 'node', why: 'the real ports (the only place with process.env, the real clock, spawns)', paths: ['node/'] },
  {
    name: 'agent-contract',
    why: 'what every agent shares: the contract (defineAgent, createAdapter, the store and adapter types, the argument guard), the common store helpers, the home proof',
    paths: ['agents/types.ts', 'agents/common/', 'agents/contract/', 'validation/discovery-context.ts', 'validation/home-proof.ts'],
  },
  {
    name: 'agents',
    why: 'one folder per agent: its definition and its store',
    paths: ['agents/agy/', 'agents/claude/', 'agents/codex/', 'agents/grok/', 'agents/hermes/', 'agents/opencode/', 'agents/gemini/'],
  },
  {
    name: 'agent-list',
    why: 'the one list of built-in definitions and what derives from it (ids: names, own keys, id rules, session variables), and the ways to get an adapter',
    paths: ['agents/', 'ids/', 'validation/get-adapter-args.ts'],
  },
  { name: 'operations', why: 'operations over the agents and the stores', paths: ['registry/', 'capture/', 'inspect/', 'purge/', 'gate/', 'jobs/'] },
  { name: 'flows', why: 'flows built from the operations', paths: ['lifecycle/', 'reset/', 'autopin/', 'loop/'] },
  { name: 'surface', why: 'the test kit, the CLI and the entry points', paths: ['testing/', 'cli/', 'entries/', 'index.ts'] },
];

/** The folders whose sub-folders are agents that must not import each other (`shared` sub-folders are open to all). */
export const AGENT_ROOTS = [{ dir: 'agents', shared: ['contract', 'common'] }];

/** The text with comments, template-literal bodies and every string but a specifier blanked (newlines kept), so imports in them are not seen. */
export function blankNonCode(text) {
  let out = '';
  let i = 0;
  const braces = []; // for each open `${`, the brace depth of the code inside it
  let depth = 0;
  let prev = ''; // the last significant code character, to tell a regex literal from a division
  const blank = (s) => s.replace(/[^\n]/g, ' ');
  while (i < text.length) {
    const c = text[i];
    const n = text[i + 1];
    if (c === '/' && n === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === '/' && n === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      // a string is kept only where a specifier stands (after `from`, `import`, `import(`); any other is blanked
      const specifier = /(?<![\w$.-])(?:from|import)\s*(?:\(\s*)?$/.test(out.slice(-24));
      out += specifier ? text.slice(i, j + 1) : c + blank(text.slice(i + 1, j)) + (text[j] ?? '');
      i = j + 1;
      prev = c;
    } else if (c === '`' || (c === '}' && braces.length > 0 && braces[braces.length - 1] === depth)) {
      if (c === '}') braces.pop();
      let j = i + 1;
      while (j < text.length && text[j] !== '`' && !(text[j] === '$' && text[j + 1] === '{')) j += text[j] === '\\' ? 2 : 1;
      out += c + blank(text.slice(i + 1, j));
      if (text[j] === '$') {
        out += '${';
        braces.push(depth);
        i = j + 2;
        prev = '{';
      } else {
        out += '`';
        i = j + 1;
        prev = '`';
      }
    } else if (c === '/' && (prev === '' || /[(,=:[!&|?{};+\-*%<>~^]/.test(prev) || /\b(?:return|typeof|case|in|of|void|yield|await)\s*$/.test(out.slice(-8)))) {
      // a regex literal: skip it whole (a quote inside it opens no string)
      let j = i + 1;
      let cls = false;
      while (j < text.length && text[j] !== '\n' && (cls || text[j] !== '/')) {
        if (text[j] === '\\') j += 1;
        else if (text[j] === '[') cls = true;
        else if (text[j] === ']') cls = false;
        j += 1;
      }
      out += blank(text.slice(i, j + 1));
      i = j + 1;
      prev = ')';
    } else {
      if (c === '{') depth += 1;
      else if (c === '}') depth -= 1;
      if (!/\s/.test(c)) prev = c;
      out += c;
      i += 1;
    }
  }
  return out;
}

/** Every module specifier a TypeScript text names, with how: `static`, `type` (`import type`/`export type`), `dynamic` (`import('…')`), `side-effect`. */
export function importSpecifiers(text) {
  const code = blankNonCode(text);
  const found = [];
  for (const m of code.matchAll(/(?<![\w$.-])(import|export)(\s+type\b)?[^;'"`()]*?\bfrom\s*(['"])([^'"\n]+)\3/g)) found.push({ at: m.index, spec: m[4], kind: m[2] ? 'type' : 'static' });
  for (const m of code.matchAll(/(?<![\w$.-])import\s*(['"])([^'"\n]+)\1/g)) found.push({ at: m.index, spec: m[2], kind: 'side-effect' });
  for (const m of code.matchAll(/(?<![\w$.-])import\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g)) found.push({ at: m.index, spec: m[2], kind: 'dynamic' });
  return found.sort((a, b) => a.at - b.at).map(({ spec, kind }) => ({ spec, kind }));
}

/** The file (a key of `files`, posix path) a relative specifier of `from` names: `x.js` → `x.ts`, a folder → its `index.ts`; undefined when none. */
export function resolveSpecifier(from, spec, files) {
  if (!spec.startsWith('.')) return undefined;
  const base = posix.normalize(posix.join(posix.dirname(from), spec));
  const stem = base.replace(/\.(?:m?js|ts)$/, '');
  for (const candidate of [`${stem}.ts`, `${base}/index.ts`, `${stem}/index.ts`]) if (files.has(candidate)) return candidate;
  return undefined;
}

/** Every `.ts` file under `dir` (posix paths relative to `dir`, sorted). */
export function listTsFiles(dir) {
  const walk = (d) => readdirSync(d).flatMap((name) => {
    const p = join(d, name);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
  return existsSync(dir) ? walk(dir).map((p) => relative(dir, p).split(sep).join('/')).sort() : [];
}

/**
 * The import graph of `sources` (a map from posix path to text): its files and one edge per (importer, imported) pair,
 * with the kinds it is imported as; relative specifiers that name no file are listed in `unresolved`.
 */
export function buildGraph(sources) {
  const files = new Set(sources.keys());
  const edges = new Map();
  const unresolved = [];
  for (const [from, text] of sources) {
    for (const { spec, kind } of importSpecifiers(text)) {
      if (!spec.startsWith('.')) continue;
      const to = resolveSpecifier(from, spec, files);
      if (to === undefined) {
        unresolved.push({ from, spec });
        continue;
      }
      const key = `${from}\0${to}`;
      const edge = edges.get(key) ?? { from, to, kinds: [] };
      if (!edge.kinds.includes(kind)) edge.kinds.push(kind);
      edges.set(key, edge);
    }
  }
  return { files: [...files].sort(), edges: [...edges.values()], unresolved };
}

/** The import graph of the `.ts` files under `srcDir` (default: this repository's src/). */
export function graphOfDir(srcDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src')) {
  return buildGraph(new Map(listTsFiles(srcDir).map((f) => [f, readFileSync(join(srcDir, f), 'utf8')])));
}

/** The cycles of a graph: its strongly connected components with more than one file, or one that imports itself (Tarjan), each sorted. */
export function importCycles(graph) {
  const next = new Map(graph.files.map((f) => [f, []]));
  for (const e of graph.edges) {
    if (!next.has(e.from)) next.set(e.from, []);
    next.get(e.from).push(e.to);
  }
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const out = [];
  let counter = 0;
  const visit = (root) => {
    // iterative Tarjan: each frame is a node and the position in its successors
    const frames = [[root, 0]];
    index.set(root, counter);
    low.set(root, counter);
    counter += 1;
    stack.push(root);
    onStack.add(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      const [v, i] = frame;
      const succ = next.get(v) ?? [];
      if (i < succ.length) {
        frame[1] += 1;
        const w = succ[i];
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter);
          counter += 1;
          stack.push(w);
          onStack.add(w);
          frames.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
        continue;
      }
      frames.pop();
      if (frames.length > 0) {
        const parent = frames[frames.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(v)));
      }
      if (low.get(v) === index.get(v)) {
        const scc = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          scc.push(w);
        } while (w !== v);
        if (scc.length > 1 || succ.includes(v)) out.push(scc.sort());
      }
    }
  };
  for (const f of next.keys()) if (!index.has(f)) visit(f);
  return out.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** The layer index of a file under `layers` (the entry whose path matches it longest), or -1 when none does. */
export function layerOf(file, layers = LAYERS) {
  let best = -1;
  let bestLength = -1;
  layers.forEach((layer, i) => {
    for (const p of layer.paths) {
      const hit = p.endsWith('/') ? file.startsWith(p) : file === p;
      if (hit && p.length > bestLength) {
        best = i;
        bestLength = p.length;
      }
    }
  });
  return best;
}

/** The files no layer names. */
export function unlayeredFiles(graph, layers = LAYERS) {
  return graph.files.filter((f) => layerOf(f, layers) === -1);
}

/** The edges that import a higher layer than their own, each with both layers' names. */
export function upwardEdges(graph, layers = LAYERS) {
  return graph.edges.flatMap((e) => {
    const a = layerOf(e.from, layers);
    const b = layerOf(e.to, layers);
    return a !== -1 && b !== -1 && b > a ? [{ ...e, fromLayer: layers[a].name, toLayer: layers[b].name }] : [];
  });
}

/** The agent folder (`<root>/<name>`) a file lies in, or undefined (a shared folder or a file directly in the root is none). */
export function agentFolderOf(file, roots = AGENT_ROOTS) {
  for (const { dir, shared } of roots) {
    const m = new RegExp(`^${dir}/([^/]+)/`).exec(file);
    if (m && !shared.includes(m[1])) return `${dir}/${m[1]}`;
  }
  return undefined;
}

/** The edges from one agent folder into another. */
export function crossAgentEdges(graph, roots = AGENT_ROOTS) {
  return graph.edges.filter((e) => {
    const a = agentFolderOf(e.from, roots);
    const b = agentFolderOf(e.to, roots);
    return a !== undefined && b !== undefined && a !== b;
  });
}

/** One edge as text: `from -> to`. */
export function edgeText(e) {
  return `${e.from} -> ${e.to}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const graph = graphOfDir();
  const report = {
    files: graph.files.length,
    edges: graph.edges.length,
    unresolved: graph.unresolved,
    cycles: importCycles(graph),
    upward: upwardEdges(graph).map((e) => `${edgeText(e)}  (${e.fromLayer} -> ${e.toLayer}; ${e.kinds.join(',')})`),
    crossAgent: crossAgentEdges(graph).map(edgeText),
    unlayered: unlayeredFiles(graph),
  };
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    process.stdout.write(`${report.files} files, ${report.edges} edges\n`);
    for (const [title, list] of [['unresolved', report.unresolved.map((u) => `${u.from}: ${u.spec}`)], ['cycles', report.cycles.map((c) => `(${c.length}) ${c.join(' ')}`)], ['upward edges', report.upward], ['cross-agent edges', report.crossAgent], ['unlayered files', report.unlayered]]) {
      process.stdout.write(`\n${title}: ${list.length}\n${list.map((l) => `  ${l}\n`).join('')}`);
    }
  }
  const bad = report.unresolved.length + report.cycles.length + report.upward.length + report.crossAgent.length + report.unlayered.length;
  process.exitCode = bad > 0 ? 1 : 0;
}
