// mam orc --uuid ID | --list | --remove ID [--purge-conversation] [--yes] [--dry-run] [--workspace WS] [--home DIR] [--agents MODULE] [--json] → exit 0,
// 1 not registered or a registry error (e.g. a registry file that is not the registry's own, REGISTRY_FILE_REFUSED), 2 usage,
// 4 needs --yes, 5 in use, 6 purge refused.
import { loadAgentsOption } from './agents-option.js';
import { type Io, runCommand, UsageError } from './cli-kit.js';
import { formatArtifact } from '../../purge/artifact.js';
import type { OrchestratorRemoveResult } from '../../purge/orchestrators-result.js';
import { Orchestrators } from '../../purge/orchestrators.js';

const EXIT: Readonly<Record<Exclude<OrchestratorRemoveResult<string>['kind'], 'invalid-id'>, number>> = { 'not-registered': 1, 'needs-yes': 4, 'in-use': 5, 'purge-refused': 6, 'dry-run': 0, removed: 0 };

// Prints a removal's outcome the way the reference orc_onboard.sh did.
function printRemoval(r: Exclude<OrchestratorRemoveResult<string>, { kind: 'invalid-id' }>, io: Io): void {
  switch (r.kind) {
    case 'not-registered':
    case 'needs-yes':
    case 'in-use':
    case 'purge-refused':
      io.stderr(`${r.message}\n`);
      return;
    case 'dry-run':
      io.stdout(`${r.message}\n`);
      return;
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
      return;
    }
    default: {
      const never: never = r;
      return never;
    }
  }
}

/** `mam orc`: registers, lists or removes orchestrator ids; see the file's first line for the exit codes. */
export function orcCommand(argv: string[], io: Io): Promise<number> {
  return runCommand('orc', argv, io, async (ctx) => {
    const uuid = ctx.str('uuid');
    const remove = ctx.str('remove');
    const modes = [uuid !== undefined, ctx.flag('list'), remove !== undefined].filter(Boolean).length;
    if (ctx.flag('purge-conversation') && remove === undefined) throw new UsageError('--purge-conversation needs --remove', '--purge-conversation');
    if (modes !== 1) throw new UsageError('give exactly one of --uuid, --list, --remove', modes === 0 ? '--uuid' : uuid !== undefined ? '--uuid' : '--remove');
    if ((ctx.flag('yes') || ctx.flag('dry-run')) && remove === undefined) throw new UsageError('--yes and --dry-run go with --remove', ctx.flag('yes') ? '--yes' : '--dry-run');
    const home = await ctx.givenHome();
    const given = ctx.str('agents');
    const agents = given === undefined ? undefined : await loadAgentsOption(given);
    const orcs = new Orchestrators<string>(await ctx.workspace(false), { ...(home === undefined ? {} : { home }), ...(agents === undefined ? {} : { agents }) });
    if (ctx.flag('list')) {
      const ids = await orcs.list();
      if (ctx.asJson) ctx.json({ kind: 'orchestrators', ids });
      else io.stdout(ids.map((id) => `${id}\n`).join(''));
      return 0;
    }
    if (uuid !== undefined) {
      const r = await orcs.register(uuid);
      if (r.kind === 'invalid-id') throw new UsageError(`--uuid: ${r.message}`, '--uuid', uuid);
      if (ctx.asJson) ctx.json(r);
      else io.stdout(r.kind === 'registered' ? `Registered orchestrator UUID ${r.id}\n` : `Orchestrator UUID ${r.id} is already registered\n`);
      return 0;
    }
    const r = await orcs.remove(remove ?? '', { purgeConversation: ctx.flag('purge-conversation'), yes: ctx.flag('yes'), dryRun: ctx.flag('dry-run') });
    if (r.kind === 'invalid-id') throw new UsageError(`--remove: ${r.message}`, '--remove', remove);
    if (ctx.asJson) ctx.json(r);
    else printRemoval(r, io);
    return EXIT[r.kind];
  });
}
