export * from './node-ports.js';
export * from './node-fs.js';
export * from './node-clock.js';
export * from './node-process.js';
export { HerdrCli, type HerdrCliOptions } from './herdr-cli.js';
export { runHerdrProcess, type HerdrProcessRunner } from './herdr-process.js';
export { enableSqliteUri } from './sqlite-uri.js';
