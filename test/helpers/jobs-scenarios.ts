import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PolicyScenario } from '../../src/loop/index.js';

/** The in-repo copy of the policy vectors (the project never reads ../shared at run time). */
export const SCENARIO_DIR = join(import.meta.dirname, '../fixtures/policy-scenarios');

/** The spec's vectors beside the project, when ../shared exists. */
export const SHARED_SCENARIO_DIR = join(import.meta.dirname, '../../../shared/spec/policy-scenarios');

/** A scenario vector with its contract. */
export type ScenarioVector = PolicyScenario & { scenario_id: string; expected_policy: { decision: string; reason_contains: string } };

/** Every vector in the in-repo copy (manifest excluded), by scenario id. */
export function loadScenarios(dir = SCENARIO_DIR): Map<string, ScenarioVector> {
  const out = new Map<string, ScenarioVector>();
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.json') || name === 'manifest.json') continue;
    const s = JSON.parse(readFileSync(join(dir, name), 'utf8')) as ScenarioVector;
    out.set(s.scenario_id, s);
  }
  return out;
}

/** The manifest of the in-repo copy. */
export function loadManifest(dir = SCENARIO_DIR): { version: number; scenarios: string[]; decisions: string[] } {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { version: number; scenarios: string[]; decisions: string[] };
}

/** A deep copy, so a test may mutate it freely. */
export function cloneScenario<T>(s: T): T {
  return structuredClone(s);
}
