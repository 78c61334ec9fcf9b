import type { TimelineEntry } from './timeline-filter';

/** The most lane columns the timeline draws; more sessions share the last one. */
export const maxTimelineColumns = 6;

/**
 * The lane columns of a directory's timeline: checkpoints outside any session first (if any),
 * then one column per session in order of first appearance, capped.
 */
export function timelineColumns(entries: readonly TimelineEntry[]): ReadonlyMap<string, number> {
  const order: string[] = [];
  const seen = new Set<string>();
  let hasNeutral = false;
  for (const entry of entries) {
    const id = entry.attribution.sessionId;
    if (id === undefined) hasNeutral = true;
    else if (!seen.has(id)) {
      seen.add(id);
      order.push(id);
    }
  }
  const columns = new Map<string, number>();
  const offset = hasNeutral ? 1 : 0;
  if (hasNeutral) columns.set('', 0);
  order.forEach((id, index) => columns.set(id, Math.min(maxTimelineColumns - 1, index + offset)));
  return columns;
}
