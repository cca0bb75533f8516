// `@mam/core/herdr`: herdr: the command port under HerdrCli, its operations, raw output and the agent-name rules.
// The whole part; its documented names are also exported by the package root.

// herdr
export { HerdrCommandPort, type HerdrRunContext, type HerdrRunner } from '../herdr/command-port.js';
export { type HerdrOp } from '../herdr/commands.js';
export { type HerdrRawOutput } from '../herdr/output.js';
export { isValidHerdrAgentName, sanitizeHerdrAgentName } from '../herdr/sanitize.js';
