// `@mam/core/node`: The Node implementations of the ports.
// The whole part; its documented names are also exported by the package root.

// node
export { HerdrCli, type HerdrCliOptions } from '../node/herdr-cli.js';
export { type HerdrProcessRunner, runHerdrProcess } from '../node/herdr-process.js';
export { NodeClock } from '../node/node-clock.js';
export { NodeFileSystem, type NodeFileSystemOptions } from '../node/node-fs.js';
export { nodePorts, type NodePortsOptions, resolvePorts } from '../node/node-ports.js';
export { NodeProcessPort, type NodeProcessPortOptions } from '../node/node-process.js';
