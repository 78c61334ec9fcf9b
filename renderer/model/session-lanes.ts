/**
 * Lanes of a timeline: each session that touched a directory gets its own lane and colour, kept
 * stable while the view lives (a session keeps its colour when new ones appear), so concurrent
 * sessions stand apart at a glance. Checkpoints with no session (by hand, a restore, an external
 * change) share the neutral lane.
 */

/** How many distinct lane colours the stylesheet defines (`lane-0` … `lane-7`). */
export const laneColourCount = 8;

/** The lane key of checkpoints taken outside any session. */
export const neutralLaneKey = '';

/** Session id → lane index, in order of first appearance. */
export type LaneMap = ReadonlyMap<string, number>;

/** Adds the sessions not yet in the map, in the order given; returns the same map when none is new. */
export function extendLanes(lanes: LaneMap, sessionIds: Iterable<string | undefined>): LaneMap {
  let next: Map<string, number> | undefined;
  for (const id of sessionIds) {
    if (id === undefined || id === neutralLaneKey) continue;
    if ((next ?? lanes).has(id)) continue;
    next ??= new Map(lanes);
    next.set(id, next.size);
  }
  return next ?? lanes;
}

/** The CSS class carrying a session's colour; the neutral lane for no session. */
export function laneClass(lanes: LaneMap, sessionId: string | undefined): string {
  const index = sessionId === undefined ? undefined : lanes.get(sessionId);
  return index === undefined ? 'lane-none' : `lane-${index % laneColourCount}`;
}

/** The column of a session in the lane graph; sessions past the visible columns share the last one. */
export function laneColumn(lanes: LaneMap, sessionId: string | undefined, columns: number): number | undefined {
  const index = sessionId === undefined ? undefined : lanes.get(sessionId);
  if (index === undefined) return undefined;
  return Math.min(index, Math.max(0, columns - 1));
}
