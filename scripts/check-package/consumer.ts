// A strict consumer of the published types (scripts/check-package.mjs type-checks it with skipLibCheck off).
import {
  AGENT_NAMES,
  type AgentName,
  getAdapter,
  isMamError,
  MamError,
  type MamErrorCode,
  nodePorts,
  openReadonly,
  PurgeService,
  type PurgeResult,
  type ReadonlyDb,
  SessionRegistry,
  type SessionRow,
  UnknownAgentError,
} from '@mam/core';
import { buildSandbox, FakeHerdr, FakeProcessTable, installFakeAgents, installFakeHerdr, type Sandbox } from '@mam/core/testing';

// No `any` may leak through the public types.
type IsAny<T> = 0 extends 1 & T ? true : false;
type NotAny<T> = IsAny<T> extends true ? never : true;
export const checks: NotAny<ReadonlyDb['db']>[] = [true];
export const checks2: [NotAny<SessionRow>, NotAny<PurgeResult>, NotAny<Sandbox['env']>, NotAny<ReturnType<ReadonlyDb['db']['prepare']>>] = [true, true, true, true];

// Error codes are a closed union; each class's code is its literal.
const code: MamErrorCode = new UnknownAgentError('x').code;
const literal: 'UNKNOWN_AGENT' = new UnknownAgentError('x').code;
// @ts-expect-error — not a code of the package
const bogus: MamErrorCode = 'NOT_A_CODE';
export function describe(e: unknown): string {
  if (!isMamError(e)) return 'other';
  const c: MamErrorCode = e.code;
  switch (c) {
    case 'UNKNOWN_AGENT':
      return 'unknown agent';
    default:
      return c;
  }
}

export async function use(): Promise<void> {
  const ports = nodePorts({ env: { HOME: '/tmp' } });
  const agent: AgentName = AGENT_NAMES[0] ?? 'claude';
  const ids: string[] = await getAdapter(agent, { ports }).discover({ workspace: '/tmp', home: '/tmp' });
  const r: PurgeResult = await new PurgeService({ ports }).purge('auto', ids[0] ?? 'x', { home: '/tmp' });
  const reg = new SessionRegistry('/tmp', { ports });
  const rows: SessionRow[] = (await reg.snapshot()).herdr_sessions;
  const h = await openReadonly('/tmp/x.sqlite', { fs: ports.fs });
  const one: unknown = h.db.prepare('SELECT 1').pluck().get();
  await h.close();
  const fake = new FakeHerdr();
  const table = new FakeProcessTable([{ pid: 1, argv: ['codex'] }]);
  const sb: Sandbox = await buildSandbox('/tmp/sb');
  await installFakeHerdr(sb.binDir, { statePath: `${sb.dir}/h.json` });
  await installFakeAgents(sb.binDir, { home: sb.home });
  void [code, literal, bogus, r, rows, one, fake, table, MamError];
}
