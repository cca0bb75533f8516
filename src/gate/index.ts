export { IdOrderGate, type IdOrderGateOptions, type IdOrderGateResult, type IdOrderRequest } from './id-order-gate.js';
export { IdOrderMarkerSchema, type IdOrderMarker, parseIdOrderMarker, idOrderMarkerText, idOrderMarkerFileName, isIdOrderMarkerFileName } from './id-order-marker.js';
export { idOrderPaths, type IdOrderPaths } from './id-order-paths.js';
export { judgeIdOrderMarker, type IdOrderVerdict, type IdOrderJudgeContext } from './id-order-judge.js';
export { idOrderRound, type IdOrderPruned, type IdOrderRound, type IdOrderRoundInput } from './id-order-round.js';
export { idOrderRefusalMessage, idOrderCloseCommand, type IdOrderBlocker, type IdOrderRefusal } from './id-order-refusal.js';
export { idOrderUnremovedText, type IdOrderUnremoved } from './id-order-unremoved.js';
export { holdIdOrderTicket, liveIdOrderTokens, markIdOrderTokenLive, type IdOrderTicket } from './id-order-ticket.js';
export { idOrderWaitFromEnv, DEFAULT_ID_ORDER_WAIT_S, type IdOrderWait } from './id-order-wait.js';
