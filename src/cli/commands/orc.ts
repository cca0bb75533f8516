// mam orc --uuid ID | --list | --remove ID [--purge-conversation] [--yes] [--dry-run] [--workspace WS] [--home DIR] → exit 0, 1 not registered
// or a registry error (e.g. a registry file that is not the registry's own, REGISTRY_FILE_REFUSED), 2 usage, 4 needs --yes, 5 in use, 6 purge refused.
import { resolve } from 'node:path';
import { parseOptions } from './parse-options.js';
import { formatArtifact, MamError, type OrchestratorRemoveResult, Orchestrators, nodePorts } from '../../index.js';

interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

const USAGE = 'usage: mam orc --uuid ID | --list | --remove ID [--purge-conversation] [--yes] [--dry-run] [--workspace WS] [--home DIR]\n';

function usage(io: Io, why: string): number {
  io.stderr(`mam orc: ${why}\n${USAGE}`);
  return 2;
}

// Prints a removal's outcome the way the reference orc_onboard.sh did, and gives its exit code.
function report(r: OrchestratorRemoveResult, io: Io): number {
  switch (r.kind) {
    case 'invalid-id':
      return usage(io, r.message);
    case 'not-registered':
      io.stderr(`${r.message}\n`);
      return 1;
    case 'needs-yes':
      io.stderr(`${r.message}\n`);
      return 4;
    case 'in-use':
      io.stderr(`${r.message}\n`);
      return 5;
    case 'purge-refused':
      io.stderr(`${r.message}\n`);
      return 6;
    case 'dry-run':
      io.stdout(`${r.message}\n`);
      return 0;
    case 'removed': {
      const p = r.purge;
      if (p?.kind === 'purged') {
        for (const a of p.purged) io.stdout(`purged: ${formatArtifact(a)}\n`);
        io.stdout(p.residual.length === 0 ? `residual: none (agent: ${p.agent})\n` : p.residual.map((x) => `residual: ${formatArtifact(x, { reason: true })}\n`).join(''));
        for (const m of p.mentions) io.stdout(`still mentioned in (shared, not edited): ${formatArtifact(m, { reason: true })}\n`);
      } else if (p?.kind === 'unresolved') {
        io.stderr(`nothing to purge: no conversation artifacts of ${r.id} found\n`);
      }
      io.stdout(`Successfully removed orchestrator UUID ${r.id}\n`);
      return 0;
    }
  }
}

export async function orcCommand(argv: string[], io: Io): Promise<number> {
  try {
    return await orc(argv, io);
  } catch (err) {
    // A registry that cannot be written (REGISTRY_FILE_REFUSED), a corrupt one, a lock timeout: one line, exit 1.
    if (!(err instanceof MamError)) throw err;
    io.stderr(`mam orc: ${err.message}\n`);
    return 1;
  }
}

async function orc(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseOptions({
      args: argv,
      allowPositionals: false,
      options: {
        uuid: { type: 'string' }, list: { type: 'boolean' }, remove: { type: 'string' }, 'purge-conversation': { type: 'boolean' },
        yes: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, workspace: { type: 'string' }, home: { type: 'string' },
      },
    });
  } catch (err) {
    return usage(io, (err as Error).message);
  }
  const v = parsed.values;
  const modes = [v.uuid !== undefined, v.list === true, v.remove !== undefined].filter(Boolean).length;
  if (v['purge-conversation'] === true && v.remove === undefined) return usage(io, '--purge-conversation needs --remove');
  if (modes !== 1) return usage(io, 'give exactly one of --uuid, --list, --remove');
  if ((v.yes === true || v['dry-run'] === true) && v.remove === undefined) return usage(io, '--yes and --dry-run go with --remove');
  const home = v.home ?? nodePorts().proc.env()['HOME'];
  // The library takes absolute paths only; a person's relative --workspace / --home is resolved here, against the shell's cwd.
  const orcs = new Orchestrators(resolve(v.workspace ?? process.cwd()), home === undefined || home === '' ? {} : { home: resolve(home) });
  if (v.list === true) {
    for (const id of await orcs.list()) io.stdout(`${id}\n`);
    return 0;
  }
  if (v.uuid !== undefined) {
    const r = await orcs.register(v.uuid);
    if (r.kind === 'invalid-id') return usage(io, r.message);
    io.stdout(r.kind === 'registered' ? `Registered orchestrator UUID ${r.id}\n` : `Orchestrator UUID ${r.id} is already registered\n`);
    return 0;
  }
  const r = await orcs.remove(v.remove as string, { purgeConversation: v['purge-conversation'] === true, yes: v.yes === true, dryRun: v['dry-run'] === true });
  return report(r, io);
}
