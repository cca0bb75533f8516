import type { Ports } from '../../ports/index.js';
import { legacyAdapterClass } from '../contract/legacy-class.js';
import type { AgentAdapter } from '../types.js';
import { agy } from './definition.js';

/**
 * The agy adapter as the former class typed it: the methods `createAdapter` sets on every adapter are not optional.
 * @public
 */
export type AgyAdapter = AgentAdapter<'agy'> & Required<Pick<AgentAdapter<'agy'>, 'resumeArgs' | 'verifyMany' | 'owns' | 'purge' | 'purgeNotesOf' | 'remainsBelonging' | 'inspect'>>;

/**
 * The former agy adapter class: `new AgyAdapter(ports)` is `createAdapter(agy, ports)`.
 * @deprecated use getAdapter('agy') or createAdapter(agy, ports)
 * @public
 */
export const AgyAdapter = legacyAdapterClass(agy) as new (ports: Ports) => AgyAdapter;
