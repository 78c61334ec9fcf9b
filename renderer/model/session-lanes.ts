import { preferredColour, type SessionIdentity } from '../../shared/sessions/session-identity';

/**
 * Sessions' colours and lanes. A session's colour comes from the session list (see
 * `sessionIdentities`): sessions live at the same time never share one, and a session keeps its
 * colour on every screen, in every window, after every reload and restart. A session the list does
 * not know (an old checkpoint's) takes the colour its id prefers. Its lane (its column in a
 * timeline's graph) follows the order in which sessions appear while the view lives. Checkpoints
 * with no session (by hand, a restore, an external change) share the neutral colour.
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

/** Sessions' identities (number and colour) by id, as `sessionIdentities` gives them. */
export type SessionIdentities = ReadonlyMap<string, SessionIdentity>;

/** The palette index of a session: its assigned colour, else the one its id prefers. */
export function sessionColourIndex(sessionId: string, identities?: SessionIdentities): number {
  return identities?.get(sessionId)?.colour ?? preferredColour(sessionId, laneColourCount);
}

/** The CSS class carrying a session's colour; the neutral colour for no session. */
export function sessionColourClass(sessionId: string | undefined, identities?: SessionIdentities): string {
  return sessionId === undefined || sessionId === neutralLaneKey
    ? 'lane-none'
    : `lane-${sessionColourIndex(sessionId, identities)}`;
}

/** The column of a session in the lane graph; sessions past the visible columns share the last one. */
export function laneColumn(lanes: LaneMap, sessionId: string | undefined, columns: number): number | undefined {
  const index = sessionId === undefined ? undefined : lanes.get(sessionId);
  if (index === undefined) return undefined;
  return Math.min(index, Math.max(0, columns - 1));
}
