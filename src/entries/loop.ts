// `@mam/core/loop`: The delegated-job loop: attribution, the dispatch store, the herdr watcher, the guard, the shadow policy.
// The whole part; its documented names are also exported by the package root.

// loop
export { attribution } from '../loop/attribution.js';
export { type AttributionMismatch, type AttributionObserved, type AttributionResult, checkAttribution } from '../loop/check-attribution.js';
export { ATTRIBUTION_FIELDS, type AttributionField, type DispatchContext } from '../loop/dispatch-context.js';
export { DispatchNotFoundError } from '../loop/dispatch-not-found-error.js';
export { DispatchStoreError } from '../loop/dispatch-store-error.js';
export { DispatchStore, type DispatchStoreOptions } from '../loop/dispatch-store.js';
export { HerdrWatcher, type HerdrWatcherOptions, type WatchStep } from '../loop/herdr-watcher.js';
export { LoopGuard, type LoopGuardAcquire, type LoopGuardHandle, type LoopGuardOptions, type PidMarker, type PidMarkerState } from '../loop/loop-guard.js';
export { type PolicyEvidence } from '../loop/policy-evidence.js';
export { POLICY_RULES, type PolicyRule } from '../loop/policy-rules.js';
export { POLICY_DECISIONS, type PolicyDecision, type PolicyDecisionKind, type PolicyScenario } from '../loop/policy-scenario.js';
export { ReconnectBackoff, type ReconnectBackoffOptions } from '../loop/reconnect-backoff.js';
export { RunLoopArgumentError } from '../loop/run-loop-argument-error.js';
export { type LoopDeps, type LoopJobRecord, type LoopJobs, type LoopOutcome, type LoopPinner, type LoopPinResult, type LoopSession, type LoopSessions, type LoopShadowSummary, type LoopTiming, type LoopTransitionRequest, type RunLoopOptions } from '../loop/run-loop-types.js';
export { runLoop } from '../loop/run-loop.js';
export { type LoggedShadowDecision, type ShadowEntry } from '../loop/shadow-entry.js';
export { ShadowPolicy } from '../loop/shadow-policy.js';
export { ShadowRunner, type ShadowRunnerOptions } from '../loop/shadow-runner.js';
export { DEFAULT_WATCH_UNTIL, waitOnce, type WaitOnceOptions } from '../loop/wait-once.js';
export { WatchArgumentError } from '../loop/watch-argument-error.js';
export { type WatchObservation, type WatchOutcome } from '../loop/watch-outcome.js';
export { paneMatchesGeneration } from '../loop/pane-matches-generation.js';

// autopin
export { AutoPinArgumentError } from '../autopin/autopin-argument-error.js';
export { autopinLoopDeps, type AutopinLoopDepsOptions } from '../autopin/autopin-loop-deps.js';
export { type AutoPinMarker, type AutoPinMarkerRead } from '../autopin/autopin-marker.js';
export { type AutoPinResult, type PinSource } from '../autopin/autopin-result.js';
export { AutoPin, type AutoPinOptions } from '../autopin/autopin.js';
export { reconcile, type ReconcileEntry, type ReconcileOptions, type ReconcileReport } from '../autopin/reconcile.js';
