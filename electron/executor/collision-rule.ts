import type { Actor } from '../../shared/contract/actor-model';
import type { AppErrorData } from '../../shared/errors';
import { agoText } from '../../shared/sessions/collision-words';
import { sessionIdentities, sessionLabel } from '../../shared/sessions/session-identity';

/** What `sessions.collisions` says to do about a collision: hold it for a person, let it run and say so, or nothing. */
export type CollisionMode = 'ask' | 'warn' | 'off';

/** What the rule reads of a session (a `SessionSummary` has all of it). */
export interface CollisionSession {
  readonly id: string;
  readonly agent: string;
  readonly status: string;
  readonly currentTurn: number;
  readonly isTurnOpen: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The last recorded writer of a file whose version now is still the one it wrote (the write ledger's view). */
export interface LastWriter {
  readonly actor: Actor;
  /** When it wrote it (ms since the epoch). */
  readonly at: number;
}

/** What the rule decides on: the session about to change files, the last writer of each, the sessions, the clock. */
export interface CollisionQuestion {
  readonly sessionId: string;
  /** The files the call would change (absolute), in call order, each with its last writer when the ledger knows it. */
  readonly writers: readonly (readonly [path: string, writer: LastWriter | undefined])[];
  readonly sessions: readonly CollisionSession[];
  readonly now: number;
  /** `sessions.collisionMinutes`, in ms. */
  readonly windowMs: number;
  /** When this session last read each file (ms since the epoch): a file it read after the other's change is no collision. */
  readonly lastRead?: ReadonlyMap<string, number>;
}

/** A change that would overwrite another live session's recent change of a file. */
export interface Collision {
  /** The file, absolute. */
  readonly path: string;
  /** This session's name for people (`claude-code #2`). */
  readonly label: string;
  readonly otherSessionId: string;
  readonly otherLabel: string;
  /** The other session's turn that changed it, when recorded. */
  readonly otherTurn: number | undefined;
  /** When the other session changed it (ms since the epoch). */
  readonly changedAt: number;
}

/** Statuses of a session whose agent is still there. */
const liveStatuses: ReadonlySet<string> = new Set(['working', 'waiting-approval', 'idle']);

/** Session numbers do not depend on the palette; any count gives the same `#n`. */
const anyColourCount = 8;

/**
 * The files of a call that another live session changed in its current (open) turn, or within
 * the window, and that still held that session's version, in call order. A file the same session
 * wrote last, one changed since by anyone else (the ledger no longer vouches for it), one whose
 * writer has ended or gone away, or one this session has read since that change is no collision.
 */
export function findCollisions(question: CollisionQuestion): Collision[] {
  const byId = new Map(question.sessions.map((session) => [session.id, session]));
  const found: Collision[] = [];
  for (const [path, writer] of question.writers) {
    if (writer === undefined || writer.actor.kind !== 'session') continue;
    const { actor } = writer;
    if (actor.sessionId === question.sessionId) continue;
    const other = byId.get(actor.sessionId);
    if (other === undefined || !liveStatuses.has(other.status)) continue;
    const isCurrentTurn = other.isTurnOpen && actor.turn === other.currentTurn;
    if (!isCurrentTurn && question.now - writer.at > question.windowMs) continue;
    // It read the other session's version before changing it: its change builds on theirs.
    if ((question.lastRead?.get(path) ?? -Infinity) >= writer.at) continue;
    const identities = sessionIdentities(question.sessions, anyColourCount);
    const self = byId.get(question.sessionId);
    found.push({
      path,
      label: sessionLabel(self?.agent ?? 'this session', identities.get(question.sessionId)),
      otherSessionId: other.id,
      otherLabel: sessionLabel(other.agent, identities.get(other.id)),
      otherTurn: actor.turn,
      changedAt: writer.at,
    });
  }
  return found;
}

/** A session's name for people among `sessions` (`claude-code #2`), as a collision names it. */
export function labelAmong(sessions: readonly CollisionSession[], sessionId: string): string {
  const self = sessions.find((session) => session.id === sessionId);
  return sessionLabel(self?.agent ?? 'another session', sessionIdentities(sessions, anyColourCount).get(sessionId));
}

/** The first collision of a call (see `findCollisions`). */
export function findCollision(question: CollisionQuestion): Collision | undefined {
  return findCollisions(question)[0];
}

export { agoText };

/** The card's line: "claude-code #2 would overwrite src/app.ts, changed by claude-code #1 12 s ago". */
export function collisionLine(collision: Collision, displayPath: string, now: number): string {
  return `${collision.label} would overwrite ${displayPath}, changed by ${collision.otherLabel} ${agoText(now - collision.changedAt)}`;
}

/** How a held collision ended without running. */
export type CollisionDenial = 'denied' | 'reread' | 'timeout' | 'unattended' | 'unasked' | 'closed';

const denialWords: Readonly<Record<CollisionDenial, string>> = {
  denied: 'A person denied it. Do not overwrite their change',
  reread: 'A person denied it and asks you to read the file again now, then make your change on top of what it holds',
  timeout: 'Nobody answered in time, so it was denied',
  unattended: 'Nobody can approve it here (no Vigil app or "vigil serve" runs to ask a person), so it was denied',
  unasked: 'The agent runs without asking a person, and Vigil asks before such a change, so it was denied',
  closed: 'It was denied before anyone answered',
};

/** The refusal the agent gets (MCP, /agent, hooks): the file, the other session, and to read the file again before changing it. */
export function collisionRefusal(
  collision: Collision,
  displayPath: string,
  tool: string,
  denial: CollisionDenial,
  now: number,
): AppErrorData {
  const ago = agoText(now - collision.changedAt);
  return {
    code: 'collision',
    message:
      `${tool} of ${displayPath} was not run: ${collision.otherLabel}, another live session, changed ${displayPath} ${ago}, ` +
      `and this change would overwrite theirs. ${denialWords[denial]}. ` +
      `Read ${displayPath} again before changing it, and change only what your task needs on top of its current content.`,
    details: {
      tool,
      path: collision.path,
      otherSession: collision.otherSessionId,
      otherLabel: collision.otherLabel,
      changedAt: new Date(collision.changedAt).toISOString(),
      ...(denial === 'reread' ? { reread: true } : {}),
    },
  };
}

/** The note a call that ran anyway carries ("warn"): what it overwrote. */
export function collisionWarning(collision: Collision, displayPath: string, now: number): string {
  return `collision: ${collisionLine(collision, displayPath, now)} (sessions.collisions is "warn", so it ran)`;
}
