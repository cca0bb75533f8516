import { checkAttribution } from './check-attribution.js';
import { ATTRIBUTION_FIELDS } from './dispatch-context.js';
import { paneMatchesGeneration } from './pane-matches-generation.js';

/**
 * Attribution as one namespace: `attribution.check(ctx, observed?)`, `attribution.paneMatchesGeneration(pane, generation)` and the required fields.
 * @public
 */
export const attribution = {
  check: checkAttribution,
  paneMatchesGeneration,
  REQUIRED_FIELDS: ATTRIBUTION_FIELDS,
} as const;
