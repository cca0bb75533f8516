import { durationOrUndefined, readPolicyEvidence } from './policy-evidence.js';
import { POLICY_RULES } from './policy-rules.js';
import type { PolicyDecision, PolicyScenario } from './policy-scenario.js';

/**
 * The pure completion policy: may this job be called complete? No I/O, no clock, no randomness — the same evidence always gives the same decision.
 * @public
 */
export class ShadowPolicy {
  /**
   * Decides one scenario: `reobserve`, `blocked`, `reject`, `hold` or `candidate_approved`, with the reason; any missing evidence counts as absent.
   * @example
   * ```ts
   * new ShadowPolicy().decide(scenario); // { decision: 'hold', reason: 'attribution incomplete: no execution anchor observed for this attempt' }
   * ```
   */
  decide(scenario: PolicyScenario): PolicyDecision {
    const evidence = readPolicyEvidence(scenario);
    for (const rule of POLICY_RULES) {
      const decided = rule(evidence);
      if (decided !== null) return decided;
    }
    const idleFor = durationOrUndefined(evidence.quiescence?.['idle_for_ms']);
    return {
      decision: 'candidate_approved',
      reason: `attributed with the execution anchor, quiescent for ${String(idleFor)} ms, report manifest committed and hash verified`,
    };
  }
}
