/**
 * True when a shell snapshot name (`<id>.<nanos>.sh`, or any `<id>.<suffix>`) belongs to the canonical id.
 * @public
 */
export function isSnapshotOf(name: string, id: string): boolean {
  return name.length > id.length + 1 && name.slice(0, id.length + 1).toLowerCase() === `${id}.`;
}
