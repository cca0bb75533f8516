// The commands' option parser: node:util's parseArgs, except that a single-valued option given twice is a usage error
// (`--workspace A … --workspace B` would otherwise run with B, so arguments a wrapper appends could replace the scope
// it set). Booleans may repeat (saying a flag twice changes nothing); an option declared `multiple` collects its values.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** {@link parseArgs} of `config`; throws (like parseArgs does for an unknown option) when a single-valued option repeats. */
export function parseOptions<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  const parsed = parseArgs({ ...config, tokens: true });
  const seen = new Set<string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option') continue;
    const option = config.options?.[token.name];
    if (option?.type !== 'string' || option.multiple === true) continue;
    if (seen.has(token.name)) throw new Error(`option '--${token.name}' given more than once (it takes one value)`);
    seen.add(token.name);
  }
  return parsed as unknown as ReturnType<typeof parseArgs<T>>;
}

/** True when `--json` is among the arguments before `--` (known even when parsing fails, so the error is JSON too). */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  return argv.slice(0, end).includes('--json');
}
