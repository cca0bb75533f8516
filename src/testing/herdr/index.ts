export { FakeHerdr } from './fake-herdr.js';
export type { FakeHerdrOptions, HerdrCall } from './fake-herdr.js';
export { createFakeHerdrState, editFakeHerdrState } from './fake-herdr-editor.js';
export type { FakeHerdrAgentSeed, FakeHerdrEditor, FakeHerdrSeeded, FakeHerdrSessionOption } from './fake-herdr-editor.js';
export { readFakeHerdrSpyLog, readFakeHerdrState, seedFakeHerdrState, updateFakeHerdrState } from './fake-herdr-state-file.js';
export type { FakeHerdrSpyEntry } from './fake-herdr-state-file.js';
export { installFakeHerdr } from './install-fake-herdr.js';
export type { InstallFakeHerdrOptions } from './install-fake-herdr.js';
export type { FakeHerdrHook } from './fake-herdr-script.js';
export type { FakeHerdrAgentMode } from './fake-herdr-proc-io.js';
export { VirtualClock } from './virtual-clock.js';
export type {
  FakeHerdrAgent,
  FakeHerdrAgentProcess,
  FakeHerdrEnv,
  FakeHerdrFault,
  FakeHerdrFaultRule,
  FakeHerdrInput,
  FakeHerdrPane,
  FakeHerdrSession,
  FakeHerdrState,
  FakeHerdrStep,
  FakeHerdrTransition,
  FakeHerdrWorkspace,
} from './fake-herdr-types.js';
// What FakeHerdr's public signature refers to, so the testing entry stands on its own (api-extractor: no forgotten exports).
export { HerdrCommandPort } from '../../herdr/command-port.js';
export type { HerdrRunContext, HerdrRunner } from '../../herdr/command-port.js';
export type { HerdrOp } from '../../herdr/commands.js';
export type { HerdrRawOutput } from '../../herdr/output.js';
export type * from '../../ports/herdr.js';
export type { Clock } from '../../ports/clock.js';
