import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Writes an executable node script named `name` into `dir` and returns its path. */
export async function writeNodeBin(dir: string, name: string, body: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, `#!/usr/bin/env node\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}
