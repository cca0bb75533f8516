import type { z } from 'zod';
import { lazySchema } from '../lazy-zod.js';
import { AGENT_NAMES, OWN_KEYS } from '../ids/agent-names.js';
import type { BuiltinAgent } from '../agents/builtin.js';

/**
 * The statuses a row can have.
 * @public
 */
export const SESSION_STATUSES = ['running', 'stopped', 'terminated'] as const;

/**
 * A row's status.
 * @public
 */
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/**
 * A row's pane: where the agent runs; fields it does not name are kept as they are.
 * @public
 */
export const PaneSchema = lazySchema((z) => z.looseObject({
  cwd: z.string().nullable().optional(),
  pid: z.number().int().nullable().optional(),
  cmd: z.string().nullable().optional(),
}));

const optionalText = lazySchema((z) => z.string().nullable().optional());

/**
 * One entry of `herdr_sessions` in `.mam/agent-sessions.yaml`; fields it does not name are kept as they are.
 * `agent` may be absent (the reference tool writes such rows; `rowAgent` infers it), but when present it must
 * be a canonical agent name.
 * @public
 */
export const SessionRowSchema = lazySchema((z) => z.looseObject({
  name: z.string().min(1),
  status: z.enum(SESSION_STATUSES),
  role: optionalText,
  agent: z.enum(AGENT_NAMES).optional(),
  herdr_session: optionalText,
  herdr_server: optionalText,
  herdr_workspace: optionalText,
  herdr_session_created_at: optionalText,
  herdr_session_epoch: z.number().nullable().optional(),
  session_id_source: z.enum(['discovered', 'pending-discovery', 'assigned']).nullable().optional(),
  session_id_verified: z.boolean().nullable().optional(),
  pane: PaneSchema.nullable().optional(),
  // Each built-in agent's own-id field (from the one list of definitions).
  ...Object.fromEntries(OWN_KEYS.map((k) => [k, optionalText])),
}));

/**
 * The fields of a row that record the built-in agents' own conversation ids (`claude_session_id_own` …).
 * @public
 */
export type OwnIdFields = { [K in BuiltinAgent['ownKey']]?: string | null | undefined };

/**
 * A registered agent session (a row).
 * @public
 */
export type SessionRow = z.infer<typeof SessionRowSchema> & OwnIdFields;

/**
 * A row's pane.
 * @public
 */
export type Pane = z.infer<typeof PaneSchema>;

/**
 * The top level of `.mam/agent-sessions.yaml`: the rows, the orchestrator ids, and any other key (kept as it is).
 * A missing or null list reads as empty, as in the reference tool.
 * @public
 */
export const RegistryFileSchema = lazySchema((z) => z.looseObject({
  herdr_sessions: z.array(SessionRowSchema).nullable().optional(),
  orchestrator_uuids: z.array(z.string()).nullable().optional(),
}));
