import type { Ports } from '../../ports/index.js';
import { legacyAdapterClass } from '../contract/legacy-class.js';
import type { AgentAdapter } from '../types.js';
import { codex } from './definition.js';

/**
 * The adapter `new CodexAdapter(ports)` gives: `createAdapter(codex, ports)`, whose optional members other than
 * `currentId` are always there.
 * @deprecated use AgentAdapter<'codex'>
 * @public
 */
export type CodexAdapter = AgentAdapter<'codex'> &
  Required<Pick<AgentAdapter<'codex'>, 'definition' | 'resumeArgs' | 'verifyMany' | 'purge' | 'owns' | 'remainsBelonging' | 'purgeNotesOf' | 'inspect'>>;

/**
 * The Codex adapter over a set of ports (the former class): `new CodexAdapter(ports)` is `createAdapter(codex, ports)`.
 * @deprecated use getAdapter('codex') or createAdapter(codex, ports)
 * @public
 */
export const CodexAdapter = legacyAdapterClass(codex) as new (ports: Ports) => CodexAdapter;
