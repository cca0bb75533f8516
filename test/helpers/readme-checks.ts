// Result comments of a README block (`// → value`) and the block rewritten so each one is checked when it runs.
//
// A result comment trails a one-line statement and names what that statement gives: the variable of a
// `const x = …;` / `let x = …;`, else the value of the expression statement `expr;`. It may go on over the comment
// lines right below it that start with `//` and two or more spaces; text after ` — ` is a remark, not checked.
// The value is written as Node's `util.inspect` shows it (whitespace is free) and `…` stands for anything.
import { inspect } from 'node:util';
import type { ReadmeBlock } from './readme-blocks.js';

export interface ResultComment {
  /** README line of the statement. */
  line: number;
  /** The expected value, as written (without the remark). */
  expected: string;
}

export interface RewrittenBlock {
  /** The block's code, each checked statement followed by `__check(line, value)`, line for line. */
  code: string;
  checks: ResultComment[];
}

const ARROW = '// →';
const CONTINUATION = /^\s*\/\/\s{2,}(\S.*)$/;
const DECLARATION = /^\s*(?:const|let)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=.*;\s*$/;
const STATEMENT_START = /^(?:(?:if|for|while|do|return|import|export|const|let|var|throw|try|catch|finally|switch|case|function|class)\b|[{}])/;

function expectedText(text: string): string {
  const remark = text.indexOf(' — ');
  return (remark < 0 ? text : text.slice(0, remark)).trim();
}

/** Parses and rewrites the block; a result comment that cannot be checked throws with its README line. */
export function rewriteBlock(block: ReadmeBlock): RewrittenBlock {
  const lines = block.code.split('\n');
  const checks: ResultComment[] = [];
  const out = lines.map((text, i) => {
    const at = text.indexOf(ARROW);
    if (at < 0) return text;
    const line = block.line + i;
    const code = text.slice(0, at).trimEnd();
    let expected = text.slice(at + ARROW.length).trim();
    for (let j = i + 1; j < lines.length; j++) {
      const more = CONTINUATION.exec(lines[j] ?? '');
      if (more === null || (lines[j] ?? '').includes(ARROW)) break;
      expected += ` ${more[1]}`;
    }
    expected = expectedText(expected);
    if (expected === '') throw new Error(`README.md:${line}: a result comment with no value`);
    checks.push({ line, expected });
    const declared = DECLARATION.exec(code);
    if (declared !== null) return `${code} __check(${line}, ${declared[1]});`;
    const indent = /^\s*/.exec(code)?.[0] ?? '';
    const statement = code.trim();
    if (statement === '' || !statement.endsWith(';') || STATEMENT_START.test(statement)) {
      throw new Error(`README.md:${line}: a result comment must trail a one-line \`const x = …;\` or expression statement`);
    }
    return `${indent}__check(${line}, (${statement.slice(0, -1)}));`;
  });
  return { code: out.join('\n'), checks };
}

// Whitespace is free: runs collapse, and go entirely next to brackets, commas and colons.
function canonical(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/ ?([[\]{}(),:]) ?/g, '$1').trim();
}

/** How a value is shown for comparison with a result comment. */
export function shown(value: unknown): string {
  return inspect(value, { depth: Infinity, breakLength: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity });
}

/** Whether `value` is what the result comment `expected` says (`…` matches anything, whitespace is free). */
export function matchesComment(value: unknown, expected: string): boolean {
  const pattern = canonical(expected).split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*?');
  return new RegExp(`^${pattern}$`).test(canonical(shown(value)));
}
