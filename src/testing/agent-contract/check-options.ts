import { InvalidArgumentError } from '../../invalid-argument-error.js';
import type { AgentContractOptions } from './types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Throws {@link InvalidArgumentError} unless `options` is of the shape {@link AgentContractOptions} describes. */
export function checkContractOptions(options: unknown): AgentContractOptions {
  if (!isObject(options)) throw new InvalidArgumentError('options', 'must be an object { adapter, stages }');
  if (typeof options['adapter'] !== 'function') throw new InvalidArgumentError('options.adapter', 'must be a function (ports) => AgentAdapter');
  const stages = options['stages'];
  if (!Array.isArray(stages) || stages.length === 0) throw new InvalidArgumentError('options.stages', 'must be a non-empty list of stages');
  const names = new Set<string>();
  stages.forEach((s: unknown, i) => {
    const param = `options.stages[${i}]`;
    if (!isObject(s)) throw new InvalidArgumentError(param, 'must be an object { name, build }');
    if (typeof s['name'] !== 'string' || s['name'] === '') throw new InvalidArgumentError(`${param}.name`, 'must be a non-empty string');
    if (names.has(s['name'])) throw new InvalidArgumentError(`${param}.name`, `${JSON.stringify(s['name'])} names two stages`);
    names.add(s['name']);
    if (typeof s['build'] !== 'function') throw new InvalidArgumentError(`${param}.build`, 'must be a function (root) => Promise<StageLayout>');
    if (s['unknownLayout'] !== undefined && typeof s['unknownLayout'] !== 'boolean') throw new InvalidArgumentError(`${param}.unknownLayout`, 'must be a boolean');
  });
  if (options['ports'] !== undefined && !isObject(options['ports'])) throw new InvalidArgumentError('options.ports', 'must be an object of ports');
  if (options['purgeService'] !== undefined && typeof options['purgeService'] !== 'function') throw new InvalidArgumentError('options.purgeService', 'must be a function (ports) => purge service');
  const extra = options['implausibleIds'];
  if (extra !== undefined && (!Array.isArray(extra) || extra.some((id) => typeof id !== 'string'))) throw new InvalidArgumentError('options.implausibleIds', 'must be a list of strings');
  return options as unknown as AgentContractOptions;
}
