export { startFakeModelServer } from './start-fake-model-server.js';
export type { FakeModelApi, FakeModelRequest, FakeModelServer, FakeModelServerOptions, FakeModelTurn } from './fake-model-types.js';
