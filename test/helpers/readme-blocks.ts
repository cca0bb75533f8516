// The ```ts blocks of a Markdown text, with the line each starts on, so a failure can name the README line.
export interface ReadmeBlock {
  /** 1-based line (in the Markdown file) of the block's first code line. */
  line: number;
  /** The `## ` heading the block is under ('' before the first). */
  section: string;
  /** The words after the language on the fence line (e.g. `no-run`). */
  flags: string[];
  code: string;
}

const FENCE = /^```\s*([\w-]*)\s*(.*)$/;
const TS_LANGS = new Set(['ts', 'typescript']);

/** Every ```ts (or ```typescript) block of `markdown`, in order; an unclosed fence throws with its line. */
export function readmeBlocks(markdown: string): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] ?? '';
    if (text.startsWith('## ')) section = text.slice(3).trim();
    const fence = FENCE.exec(text);
    if (fence === null) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
    if (end < 0) throw new Error(`README.md:${i + 1}: a code fence that is never closed`);
    if (TS_LANGS.has((fence[1] ?? '').toLowerCase())) {
      blocks.push({ line: i + 2, section, flags: (fence[2] ?? '').split(/\s+/).filter(Boolean), code: lines.slice(i + 1, end).join('\n') });
    }
    i = end;
  }
  return blocks;
}

/** Whether a block is marked not to be run (```ts no-run). */
export function isNoRun(block: ReadmeBlock): boolean {
  return block.flags.includes('no-run');
}
