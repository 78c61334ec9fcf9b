import type { PlainActor } from '../../shared/contract/actor-model';
import type { RewindMode } from '../../shared/contract/sessions-contract';
import { AppError } from '../../shared/errors';
import { now, type SessionBook } from './session-book';
import type { SessionEntry } from './session-entry';
import type { FileInFolder } from './session-rewinder';
import type { SessionRewoundEvent, SessionService } from './session-types';

/** What rewinding a session to the start of a turn would change, without changing anything. */
export async function planSessionRewind(
  book: SessionBook,
  sessionId: string,
  toTurn: number,
  mode: RewindMode,
): ReturnType<SessionService['planRewind']> {
  const entry = await book.catalog.find(sessionId);
  requireConversationReachable(entry, mode);
  return book.rewinder().plan(await book.catalog.peek(entry), toTurn, mode);
}

/** What a rewind may be told: the plan it follows, who asked, the other sessions' files it may overwrite. */
export interface RewindOptions {
  readonly planId?: string;
  readonly actor?: PlainActor;
  readonly overwrite?: readonly FileInFolder[];
}

/** Rewinds a session to the start of a turn (refused while it runs calls), records it, and tells the listeners. */
export async function rewindSession(
  book: SessionBook,
  sessionId: string,
  toTurn: number,
  mode: RewindMode,
  options: RewindOptions = {},
): ReturnType<SessionService['rewind']> {
  const entry = await book.catalog.find(sessionId);
  // An ended or disconnected session's code always goes back; its conversation only while its agent can be told.
  requireConversationReachable(entry, mode);
  if (entry.running > 0) {
    throw new AppError('conflict', `Session ${sessionId} is running tool calls; rewind it when they have finished.`, {
      sessionId,
    });
  }
  const outcome = await book
    .rewinder()
    .rewind(await book.catalog.peek(entry), toTurn, mode, options.planId, options.actor, options.overwrite);
  const at = now();
  const rewind = {
    at,
    toTurn,
    mode,
    rewoundTurns: outcome.rewoundTurns,
    restoredDirectories: outcome.restored.map((item) => item.directory),
  };
  await book.commit(entry, [...book.endingTurn(entry), { type: 'rewound', ...rewind }]);
  book.options.events.emit('sessions:rewound', { sessionId, rewind });
  const event: SessionRewoundEvent = { sessionId, rewind, history: await book.history(sessionId) };
  for (const listener of book.rewoundListeners) book.safely(() => listener(event));
  return outcome;
}

/**
 * A conversation rewind tells the agent to forget turns: an ended session has no agent left to
 * tell (its client closed it, as Claude Code does at exit), so only its code can go back. Refused
 * with the way forward; a code rewind of any session (ended, disconnected, live) is always allowed.
 */
function requireConversationReachable(entry: SessionEntry, mode: RewindMode): void {
  if (!entry.isClosed || mode === 'code') return;
  throw new AppError(
    'unsupported',
    `Session ${entry.id} has ended, so its agent cannot be told to forget turns: its conversation cannot be rewound. Choose "Code only" to put its files back.`,
    { sessionId: entry.id, mode },
  );
}
