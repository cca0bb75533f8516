// mam discover <agent> --workspace WS [--home DIR] [--epoch S] [--json] → the agent's conversations in WS, newest first.
import { resolve } from 'node:path';
import { parseOptions } from './parse-options.js';
import { AGENT_NAMES, getAdapter, nodePorts } from '../../index.js';

interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

export async function discoverCommand(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseOptions({ args: argv, allowPositionals: true, options: { home: { type: 'string' }, workspace: { type: 'string' }, epoch: { type: 'string' }, json: { type: 'boolean' } } });
  } catch (err) {
    io.stderr(`mam discover: ${(err as Error).message}\n`);
    return 2;
  }
  const [given, ...extra] = parsed.positionals;
  const agent = AGENT_NAMES.find((n) => n === given);
  const epoch = parsed.values.epoch === undefined ? undefined : Number(parsed.values.epoch);
  if (agent === undefined || extra.length > 0 || (epoch !== undefined && !Number.isFinite(epoch))) {
    io.stderr(`usage: mam discover <${AGENT_NAMES.join('|')}> --workspace WS [--home DIR] [--epoch SECONDS] [--json]\n`);
    return 2;
  }
  const ids = await getAdapter(agent).discover({
    // A relative --workspace is the shell's: resolved against the current directory here (the library refuses one).
    workspace: resolve(parsed.values.workspace ?? process.cwd()),
    home: parsed.values.home ?? nodePorts().proc.env()['HOME'] ?? '/',
    ...(epoch === undefined ? {} : { epoch }),
  });
  io.stdout(parsed.values.json === true ? `${JSON.stringify(ids)}\n` : ids.map((i) => `${i}\n`).join(''));
  return 0;
}
