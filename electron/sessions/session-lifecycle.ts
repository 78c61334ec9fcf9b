import { randomBytes } from 'node:crypto';
import type { SessionSummary } from '../../shared/contract/sessions-contract';
import { AppError } from '../../shared/errors';
import { syncDirectory } from '../files';
import { now, type SessionBook } from './session-book';
import { toBrief } from './session-brief';
import type { SessionEntry } from './session-entry';
import { parseOpenSessionRequest, resolveSessionPlace, type SessionPlace } from './open-session-request';
import type { SessionRecord } from './session-records';
import { initialState } from './session-state';
import type { OpenSessionRequest } from './session-types';

function newSessionId(): string {
  return `ses_${Date.now().toString(36)}${randomBytes(5).toString('hex')}`;
}

/** Opens a session: resumes the one the request names, or creates a new one. */
export async function openSession(book: SessionBook, request: OpenSessionRequest): Promise<SessionSummary> {
  const parsed = parseOpenSessionRequest(request);
  const place = await resolveSessionPlace(parsed.roots, parsed.cwd);
  if (parsed.sessionId !== undefined) {
    const entry = await book.catalog.find(parsed.sessionId);
    await resume(book, entry, parsed, place.roots.length > 0 ? place : undefined, true);
    return book.summary(entry.id);
  }
  return create(book, newSessionId(), parsed, place, true);
}

/**
 * Opens the session whose id an agent's own session id names (its hooks): resumed when its log
 * exists (reopened when it was closed), created with exactly this id when not. `isHeld: false` (a
 * one-shot process) writes to it without holding a connection, so nothing is recorded when the process ends.
 */
export async function openKeyedSession(
  book: SessionBook,
  sessionId: string,
  request: OpenSessionRequest,
  options: { readonly isHeld: boolean },
): Promise<SessionSummary> {
  const parsed = parseOpenSessionRequest({ ...request, sessionId });
  const entry = await book.catalog.find(sessionId).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'not_found') return undefined;
    throw error;
  });
  if (entry === undefined)
    return create(book, sessionId, parsed, await resolveSessionPlace(parsed.roots, parsed.cwd), options.isHeld);
  if (entry.isClosed || (options.isHeld && !entry.isConnected))
    await resume(book, entry, parsed, undefined, options.isHeld);
  return book.summary(sessionId);
}

async function resume(
  book: SessionBook,
  entry: SessionEntry,
  parsed: ReturnType<typeof parseOpenSessionRequest>,
  place: SessionPlace | undefined,
  isHeld: boolean,
): Promise<void> {
  const at = now();
  const optional = {
    client: parsed.client,
    transcriptPath: parsed.transcriptPath,
  };
  const records: SessionRecord[] = [{ type: 'resumed', at, ...optional }];
  if (place !== undefined)
    records.push({
      type: 'roots',
      at,
      roots: [...place.roots],
      cwd: place.cwd,
    });
  entry.isConnected = isHeld;
  await book.commit(entry, records);
}

async function create(
  book: SessionBook,
  id: string,
  parsed: ReturnType<typeof parseOpenSessionRequest>,
  place: SessionPlace,
  isHeld: boolean,
): Promise<SessionSummary> {
  const optional = {
    client: parsed.client,
    transcriptPath: parsed.transcriptPath,
  };
  const opened: Extract<SessionRecord, { type: 'opened' }> = {
    type: 'opened',
    v: 1,
    at: now(),
    id,
    agent: parsed.agent,
    ...optional,
    roots: [...place.roots],
    cwd: place.cwd,
  };
  const state = initialState(opened);
  const entry: SessionEntry = {
    id,
    file: book.catalog.fileOf(id),
    brief: toBrief(state),
    isClosed: false,
    isConnected: isHeld,
    state,
    loading: undefined,
    writer: undefined,
    isTorn: false,
    running: 0,
  };
  book.catalog.add(entry);
  await book.commit(entry, [opened]);
  await syncDirectory(book.options.directory);
  book.options.logger.info('session opened', { session: id, agent: parsed.agent, roots: place.roots });
  return book.summary(id);
}

/** Sets a session's workspace roots and working directory. */
export async function setSessionRoots(
  book: SessionBook,
  sessionId: string,
  roots: readonly string[],
  cwd?: string,
): Promise<SessionSummary> {
  const entry = book.open(sessionId);
  const place = await resolveSessionPlace(roots, cwd);
  await book.commit(entry, [{ type: 'roots', at: now(), roots: [...place.roots], cwd: place.cwd }]);
  return book.summary(sessionId);
}

/** Closes a session (its agent or the user ended it). */
export async function closeSession(book: SessionBook, sessionId: string): Promise<SessionSummary> {
  const entry = await book.catalog.find(sessionId);
  if (entry.isClosed) return book.summary(sessionId);
  entry.isConnected = false;
  await book.commit(entry, [...book.endingTurn(entry), { type: 'closed', at: now() }]);
  book.options.logger.info('session closed', { session: sessionId });
  return book.summary(sessionId);
}

/** Records that a session's agent went away without closing it. */
export async function disconnectSession(book: SessionBook, sessionId: string, reason: string): Promise<SessionSummary> {
  const entry = await book.catalog.find(sessionId);
  if (entry.isClosed || !entry.isConnected) return book.summary(sessionId);
  entry.isConnected = false;
  await book.commit(entry, [...book.endingTurn(entry), { type: 'disconnected', at: now(), reason }]);
  book.options.logger.info('session disconnected', { session: sessionId, reason });
  return book.summary(sessionId);
}

/** Revives a disconnected session (`conflict` when it was closed). */
export async function reconnectSession(book: SessionBook, sessionId: string): Promise<SessionSummary> {
  const entry = await book.catalog.find(sessionId);
  if (entry.isClosed)
    throw new AppError(
      'conflict',
      `Session ${sessionId} was closed; open a new session or resume it with session.open.`,
      { sessionId },
    );
  if (entry.isConnected) return book.summary(sessionId);
  entry.isConnected = true;
  await book.commit(entry, [{ type: 'resumed', at: now() }]);
  book.options.logger.info('session reconnected', { session: sessionId });
  return book.summary(sessionId);
}

/**
 * The core is shutting down: every session still connected is recorded as disconnected ("Vigil
 * stopped"), so its last activity stays what it was and its agent can resume it; logs are closed.
 */
export async function disposeSessions(book: SessionBook): Promise<void> {
  const connected = [...book.catalog.entries()].filter((entry) => entry.isConnected && !entry.isClosed);
  await Promise.all(
    connected.map((entry) =>
      disconnectSession(book, entry.id, 'Vigil stopped').catch((error: unknown) =>
        book.options.logger.warn('could not record a disconnection', { session: entry.id, error }),
      ),
    ),
  );
  await book.catalog.dispose();
}
