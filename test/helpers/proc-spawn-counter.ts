import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A bin dir whose `ps` and `lsof` log each call, then run the real tool. */
export interface SpawnCounter {
  binDir: string;
  /** PATH with the counting bin dir first. */
  path: string;
  /** The tools called so far, one name per call, in order. */
  calls(): Promise<string[]>;
}

/** The absolute path of a tool on the current PATH, or null. */
export function whichTool(name: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** Writes counting `ps` and `lsof` wrappers into `<dir>/bin`. */
export async function spawnCounter(dir: string, tools: readonly string[] = ['ps', 'lsof']): Promise<SpawnCounter> {
  const binDir = join(dir, 'bin');
  const log = join(dir, 'calls.log');
  await mkdir(binDir, { recursive: true });
  await writeFile(log, '');
  for (const tool of tools) {
    const real = whichTool(tool);
    if (real === null) continue;
    const script = join(binDir, tool);
    await writeFile(script, `#!/bin/sh\necho ${tool} >> '${log}'\nexec '${real}' "$@"\n`);
    await chmod(script, 0o755);
  }
  return {
    binDir,
    path: `${binDir}:/nonexistent-mam-bin`,
    calls: async () => (await readFile(log, 'utf8')).split('\n').filter((l) => l !== ''),
  };
}
