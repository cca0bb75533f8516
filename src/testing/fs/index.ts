export { FakeClock, type FakeClockOptions } from './fake-clock.js';
export {
  RecordingFileSystem,
  type FaultErrno,
  type FaultPlan,
  type MutationOp,
  type RecordedMutation,
  type RecordingFileSystemOptions,
} from './recording-file-system.js';
export { RecordingDirHandle } from './recording-dir-handle.js';
