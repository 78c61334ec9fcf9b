/**
 * How sessions are told apart on screen and in the CLI: a colour, and a number for sessions of the
 * same agent that are live at the same time (`claude-code #1`, `claude-code #2`, in order of
 * start). Both are the lowest free one among the sessions still live when a session started, so
 * sessions live together never share either, every window and the CLI agree (they depend only on
 * the session list), and a session keeps its colour and number for good: each depends only on the
 * sessions that started before it.
 */

/** What identity needs of a session (a `SessionSummary` has all of it). */
export interface SessionIdentityInput {
  readonly id: string;
  readonly agent: string;
  readonly createdAt: string;
  /** Its last change: for a session that is over, when it ended. */
  readonly updatedAt: string;
  readonly status: string;
}

/** A session's number among those with its agent name, and its palette index. */
export interface SessionIdentity {
  /** 1, 2, …: the lowest number no other session of its agent held when it started; absent when none of its agent was ever live beside it. */
  readonly number: number | undefined;
  readonly colour: number;
}

/** Statuses of a session whose agent is gone: its colour is free again from its last change on. */
const overStatuses: ReadonlySet<string> = new Set(['ended', 'disconnected']);

/** FNV-1a of a session id: the colour a session prefers, the same in every window. */
export function preferredColour(sessionId: string, colourCount: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < sessionId.length; index += 1) {
    hash ^= sessionId.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % colourCount;
}

/** Oldest first; ties by id, so the order is total and the same everywhere. */
function byStart(left: SessionIdentityInput, right: SessionIdentityInput): number {
  if (left.createdAt !== right.createdAt) return left.createdAt < right.createdAt ? -1 : 1;
  return left.id < right.id ? -1 : left.id > right.id ? 1 : 0;
}

/** Whether `earlier` (started first) was still live when `later` started. */
function overlaps(earlier: SessionIdentityInput, later: SessionIdentityInput): boolean {
  return !overStatuses.has(earlier.status) || earlier.updatedAt > later.createdAt;
}

/** Its preferred colour, or the next one that no earlier session still live at its start holds. */
function pickColour(session: SessionIdentityInput, taken: ReadonlySet<number>, colourCount: number): number {
  const preferred = preferredColour(session.id, colourCount);
  for (let step = 0; step < colourCount; step += 1) {
    const colour = (preferred + step) % colourCount;
    if (!taken.has(colour)) return colour;
  }
  return preferred;
}

/** The lowest number from 1 that none of `taken` holds. */
function lowestFree(taken: ReadonlySet<number>): number {
  let number = 1;
  while (taken.has(number)) number += 1;
  return number;
}

/** A placed session: its colour and number, and whether another of its agent was live beside it. */
interface Placed {
  readonly session: SessionIdentityInput;
  readonly colour: number;
  readonly number: number;
  hasTwin: boolean;
}

/**
 * Every session's identity. Each session, in order of start, takes its preferred colour unless an
 * earlier session still live when it started holds it (then the next free one), and the lowest
 * number no such session of its agent holds; so sessions live together never share a colour while
 * there are no more of them than colours, and never share a name.
 */
export function sessionIdentities(
  sessions: readonly SessionIdentityInput[],
  colourCount: number,
): ReadonlyMap<string, SessionIdentity> {
  const all: Placed[] = [];
  // Sessions that may still overlap a later start; one that did not overlap a start never will again.
  let live: Placed[] = [];
  for (const session of [...sessions].sort(byStart)) {
    live = live.filter((entry) => overlaps(entry.session, session));
    const twins = live.filter((entry) => entry.session.agent === session.agent);
    for (const twin of twins) twin.hasTwin = true;
    const placed: Placed = {
      session,
      colour: pickColour(session, new Set(live.map((entry) => entry.colour)), colourCount),
      number: lowestFree(new Set(twins.map((entry) => entry.number))),
      hasTwin: twins.length > 0,
    };
    live.push(placed);
    all.push(placed);
  }
  return new Map(
    all.map((entry) => [entry.session.id, { colour: entry.colour, number: entry.hasTwin ? entry.number : undefined }]),
  );
}

/** A session's name for people: the agent's name, with its number when another session shares that name. */
export function sessionLabel(agent: string, identity: SessionIdentity | undefined): string {
  return identity?.number === undefined ? agent : `${agent} #${identity.number}`;
}
