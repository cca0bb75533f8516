/**
 * The exit code of a run stopped by a signal, from the abort reason (the signal's name): 129 SIGHUP, 130 SIGINT, else
 * 143 (SIGTERM).
 * @public
 */
export function signalExitCode(reason: unknown): 129 | 130 | 143 {
  if (reason === 'SIGHUP') return 129;
  if (reason === 'SIGINT') return 130;
  return 143;
}
