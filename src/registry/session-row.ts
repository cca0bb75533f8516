import { z } from 'zod';
import { AGENT_NAMES } from '../ids/agent-names.js';

/**
 * A row's pane: where the agent runs.
 * @public
 */
export const PaneSchema = z.looseObject({
  cwd: z.string().optional(),
  pid: z.number().int().nullable().optional(),
  cmd: z.string().nullable().optional(),
});

/**
 * One entry of `herdr_sessions` in `.mam/agent-sessions.yaml`; fields it does not name are kept as they are.
 * @public
 */
export const SessionRowSchema = z.looseObject({
  name: z.string().min(1),
  status: z.enum(['running', 'stopped', 'terminated']),
  role: z.string().nullable().optional(),
  agent: z.enum(AGENT_NAMES),
  herdr_session: z.string().nullable().optional(),
  herdr_server: z.string().nullable().optional(),
  herdr_workspace: z.string().nullable().optional(),
  herdr_session_created_at: z.string().nullable().optional(),
  herdr_session_epoch: z.number().nullable().optional(),
  session_id_source: z.enum(['discovered', 'pending-discovery', 'assigned']).nullable().optional(),
  session_id_verified: z.boolean().nullable().optional(),
  pane: PaneSchema.nullable().optional(),
  claude_session_id_own: z.string().nullable().optional(),
  agy_conversation_id_own: z.string().nullable().optional(),
  codex_session_id_own: z.string().nullable().optional(),
  grok_session_id_own: z.string().nullable().optional(),
  hermes_conversation_id_own: z.string().nullable().optional(),
  opencode_session_id_own: z.string().nullable().optional(),
});

/**
 * A registered agent session (a row).
 * @public
 */
export type SessionRow = z.infer<typeof SessionRowSchema>;
