import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/** A fresh real workspace dir with its job registry path (`.mam/jobs`), and a disposer. */
export async function makeJobsWorkspace(tag = 'jobs'): Promise<{ workspace: string; registryDir: string; logsDir: string; dispose: () => Promise<void> }> {
  const workspace = await realpath(await mkdtemp(join(tmpdir(), `mam-${tag}-`)));
  return {
    workspace,
    registryDir: join(workspace, '.mam', 'jobs'),
    logsDir: join(workspace, '.mam', 'logs', 'jobs'),
    dispose: () => rm(workspace, { recursive: true, force: true }),
  };
}

/** Relative path → sha256 of every file under `dir` (recursively): any byte change, addition or removal shows. */
export async function fingerprintDir(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        out[`${relative(dir, p)}/`] = 'dir';
        await walk(p);
      } else out[relative(dir, p)] = createHash('sha256').update(await readFile(p)).digest('hex');
    }
  };
  await walk(dir);
  return out;
}
