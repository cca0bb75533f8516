import type { Ports } from '../../ports/index.js';
import { legacyAdapterClass } from '../contract/legacy-class.js';
import type { AgentAdapter } from '../types.js';
import { grok } from './definition.js';

/**
 * The grok adapter as the former class typed it: the methods `createAdapter` sets on every adapter are not optional.
 * @public
 */
export type GrokAdapter = AgentAdapter<'grok'> & Required<Pick<AgentAdapter<'grok'>, 'resumeArgs' | 'verifyMany' | 'owns' | 'purge' | 'purgeNotesOf' | 'inspect'>>;

/**
 * The former grok adapter class: `new GrokAdapter(ports)` is `createAdapter(grok, ports)`.
 * @deprecated use getAdapter('grok') or createAdapter(grok, ports)
 * @public
 */
export const GrokAdapter = legacyAdapterClass(grok) as new (ports: Ports) => GrokAdapter;
