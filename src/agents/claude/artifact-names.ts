/**
 * True for a telemetry file of the conversation: `<prefix>.<id>.<rest>.json` with a non-empty prefix and rest (real 2.1:
 * `1p_failed_events.<sessionId>.<eventUuid>.json`). A file whose *event* uuid is the id (`…<other>.<id>.json`) is not one.
 * @public
 */
export function isTelemetryOf(name: string, id: string): boolean {
  if (!name.endsWith('.json') || name.includes('/') || name.includes('\0')) return false;
  const mark = `.${id}.`;
  let at = name.indexOf(mark);
  while (at !== -1) {
    const rest = name.slice(at + mark.length, -'.json'.length);
    if (at > 0 && rest.length > 0 && at + mark.length < name.length - '.json'.length) return true;
    at = name.indexOf(mark, at + 1);
  }
  return false;
}

/**
 * True for a todo list of the conversation: `<id>-<anything>.json` (e.g. `<id>-agent-<id>.json`).
 * @public
 */
export function isTodoOf(name: string, id: string): boolean {
  return name.startsWith(`${id}-`) && name.endsWith('.json') && name.length > id.length + 1 + '.json'.length && !name.includes('/');
}
