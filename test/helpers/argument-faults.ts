// Shared by the argument-check tables: a directory's listing (to show nothing was created) and the fault a call throws.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every entry under `dir`, as sorted relative names (`sub/` for a directory). */
export function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((x, y) => x.name.localeCompare(y.name))) {
      out.push(`${rel}${e.name}${e.isDirectory() ? '/' : ''}`);
      if (e.isDirectory()) walk(join(d, e.name), `${rel}${e.name}/`);
    }
  };
  walk(dir, '');
  return out;
}

/** What `call` throws or rejects with, or null when it returns. */
export async function fault(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (err) {
    return err;
  }
  return null;
}
