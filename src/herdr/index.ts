export { isValidHerdrAgentName, sanitizeHerdrAgentName } from './sanitize.js';
export { HerdrCommandPort, herdrPresenceOf } from './command-port.js';
export type { HerdrRunContext, HerdrRunner } from './command-port.js';
export type { HerdrOp } from './commands.js';
export type { HerdrRawOutput } from './output.js';
