import type { Ports } from '../../ports/index.js';
import { legacyAdapterClass } from '../contract/legacy-class.js';
import type { AgentAdapter } from '../types.js';
import { opencode } from './definition.js';

/**
 * The adapter `new OpencodeAdapter(ports)` gives: an `AgentAdapter` with the optional methods `createAdapter` always
 * supplies (`verifyMany`, `owns`, `remainsBelonging`, `purgeNotesOf`, `inspect`, `resumeArgs`).
 * @public
 */
export type OpencodeAdapter = AgentAdapter<'opencode'> & Required<Pick<AgentAdapter<'opencode'>, 'verifyMany' | 'owns' | 'remainsBelonging' | 'purgeNotesOf' | 'inspect' | 'resumeArgs'>>;

/**
 * The former OpenCode adapter class: `new OpencodeAdapter(ports)` is `createAdapter(opencode, ports)`.
 * @deprecated use getAdapter('opencode') or createAdapter(opencode, ports)
 * @public
 */
export const OpencodeAdapter = legacyAdapterClass(opencode) as new (ports: Ports) => OpencodeAdapter;
