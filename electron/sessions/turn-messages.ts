import { stat } from 'node:fs/promises';
import path from 'node:path';
import { sessionIdSchema } from '../../shared/contract/sessions-contract';
import { readSessionLog } from './session-log';

/** Looks up the first user message of a session's turn (what the user asked for), when the log has one. */
export type TurnMessageLookup = (sessionId: string, turn: number) => Promise<string | undefined>;

/** The longest message text kept per turn (a view shows one line of it). */
const maxMessageChars = 2_000;

/** Sessions whose turn messages are kept in memory at once. */
const maxCachedSessions = 64;

interface CachedSession {
  readonly size: number;
  readonly mtimeMs: number;
  readonly messages: ReadonlyMap<number, string>;
}

/**
 * Reads turn messages from the session logs in `sessionsDir` (read only, streamed), keeping each
 * session's messages until its log changes. A session without a log, or a log that cannot be
 * read, has no messages: callers show the checkpoint's reason instead.
 */
export function createTurnMessageLookup(sessionsDir: string): TurnMessageLookup {
  const cache = new Map<string, CachedSession>();
  const pending = new Map<string, Promise<ReadonlyMap<number, string>>>();

  const load = async (sessionId: string): Promise<ReadonlyMap<number, string>> => {
    const file = path.join(sessionsDir, `${sessionId}.jsonl`);
    const stats = await stat(file).catch(() => undefined);
    if (stats?.isFile() !== true) return new Map();
    const cached = cache.get(sessionId);
    if (cached !== undefined && cached.size === stats.size && cached.mtimeMs === stats.mtimeMs) return cached.messages;
    const messages = new Map<number, string>();
    await readSessionLog(file, (record) => {
      if (
        record.type === 'message' &&
        record.role === 'user' &&
        !messages.has(record.turn) &&
        record.text.trim() !== ''
      )
        messages.set(record.turn, record.text.slice(0, maxMessageChars));
    }).catch(() => undefined);
    if (cache.size >= maxCachedSessions) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(sessionId, { size: stats.size, mtimeMs: stats.mtimeMs, messages });
    return messages;
  };

  return async (sessionId, turn) => {
    if (!sessionIdSchema.safeParse(sessionId).success) return undefined;
    let loading = pending.get(sessionId);
    if (loading === undefined) {
      loading = load(sessionId).finally(() => pending.delete(sessionId));
      pending.set(sessionId, loading);
    }
    return (await loading).get(turn);
  };
}
