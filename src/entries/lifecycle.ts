// `@mam/core/lifecycle`: Agent sessions over herdr: create, onboard and stop, and the id-order gate for same-cwd creates.
// The whole part; its documented names are also exported by the package root.

// lifecycle
export { type AcquiredPane } from '../lifecycle/acquire-pane.js';
export { type LiveIdCapture, type LiveSessionWhere } from '../lifecycle/capture-live-id.js';
export { type CreateCleanup, type CreateOptions, type CreateResult, type CreateStep, type OnboardingReport } from '../lifecycle/create-result.js';
export { createSession } from '../lifecycle/create-session.js';
export { type LifecycleContext, type LifecycleTimeouts } from '../lifecycle/lifecycle-context.js';
export { LifecycleStepError } from '../lifecycle/lifecycle-step-error.js';
export { type SessionInstant } from '../lifecycle/new-session-row.js';
export { onboardSession } from '../lifecycle/onboard-session.js';
export { type PinOutcome } from '../lifecycle/pin-captured-id.js';
export { SessionLifecycle, type SessionLifecycleOptions } from '../lifecycle/session-lifecycle.js';
export { type ResolvedSessionSpec, type SessionSpec } from '../lifecycle/session-spec.js';
export { type StopWhere } from '../lifecycle/stop-agent.js';
export { type StopExit, type StopOptions, type StopResult } from '../lifecycle/stop-result.js';
export { stopSession } from '../lifecycle/stop-session.js';

// gate
export { IdOrderGate, type IdOrderGateOptions, type IdOrderGateResult, type IdOrderRequest } from '../gate/id-order-gate.js';
export { type IdOrderVerdict } from '../gate/id-order-judge.js';
export { type IdOrderMarker, IdOrderMarkerSchema } from '../gate/id-order-marker.js';
export { idOrderPaths, type IdOrderPaths } from '../gate/id-order-paths.js';
export { type IdOrderBlocker, type IdOrderRefusal } from '../gate/id-order-refusal.js';
export { type IdOrderUnremoved } from '../gate/id-order-unremoved.js';
export { DEFAULT_ID_ORDER_WAIT_S, type IdOrderWait } from '../gate/id-order-wait.js';
export { type IdOrderTicket } from '../gate/id-order-ticket.js';
export { type IdOrderPruned } from '../gate/id-order-round.js';
