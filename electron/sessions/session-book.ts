import type { SessionSummary, TurnBrief } from '../../shared/contract/sessions-contract';
import { AppError } from '../../shared/errors';
import type { EventHub } from '../lib';
import type { Logger } from '../logging';
import { pendingCallAfter } from './pending-call';
import { SessionCatalog } from './session-catalog';
import { entryStatus, type SessionEntry } from './session-entry';
import { turnSourceOf } from './session-brief';
import { historyCall, toHistory } from './session-history';
import type { SessionState } from './session-state';
import { turnBrief } from './session-summary-parts';
import type { SessionRecord } from './session-records';
import type { SessionRewinder } from './session-rewinder';
import type { SessionHistory, SessionRewoundEvent } from './session-types';

/** What the session registry needs from the rest of the core. */
export interface SessionRegistryOptions {
  /** `$VIGIL_HOME/sessions`. */
  readonly directory: string;
  readonly logger: Logger;
  readonly events: Pick<EventHub, 'emit'>;
  /** Whether a session has a tool call waiting for a human (the approvals queue). */
  readonly isWaitingForApproval?: (sessionId: string) => boolean;
  /** Turn undo; without it `rewind` and `planRewind` say they are unavailable. */
  readonly rewinder?: SessionRewinder;
  /** How many sessions start-up reads, the most recently changed (default 200); older ones are read on demand. */
  readonly shownAtStart?: number;
  /** Logs of sessions that are not connected and had no activity for this long are deleted (`sessions.maxDays`, read at each prune); without it, none. */
  readonly maxAgeMs?: () => number;
}

/** The time now, as records carry it. */
export const now = (): string => new Date().toISOString();

/**
 * What every part of the session registry shares: the catalog of sessions, the one way a change
 * is written (`commit`), a session's summary with its live status, and the listeners told of changes.
 */
export class SessionBook {
  readonly catalog: SessionCatalog;
  readonly options: SessionRegistryOptions;
  readonly rewoundListeners = new Set<(event: SessionRewoundEvent) => void>();
  readonly changedListeners = new Set<(session: SessionSummary) => void>();

  constructor(options: SessionRegistryOptions) {
    this.options = options;
    this.catalog = new SessionCatalog({
      directory: options.directory,
      logger: options.logger,
      report: (message) => this.report(message),
      changed: (entry) => this.notifyChanged(entry.id),
      shownAtStart: options.shownAtStart,
      maxAgeMs: options.maxAgeMs,
    });
  }

  /** Applies records to a session in memory and writes them to its log (the pending call ends when they say so). */
  commit(
    entry: SessionEntry,
    records: readonly SessionRecord[],
    options: { readonly durable?: boolean } = {},
  ): Promise<void> {
    entry.pendingCall = pendingCallAfter(entry.pendingCall, records);
    return this.catalog.commit(entry, records, options);
  }

  /** A turn-ended record when a turn is open (closing, disconnecting, a new turn). */
  endingTurn(entry: SessionEntry): SessionRecord[] {
    return entry.brief.isTurnOpen ? [{ type: 'turn-ended', at: now(), turn: entry.brief.currentTurn }] : [];
  }

  /** A session's summary with its live status (connections, running calls, approvals, its pending call). */
  summarize(entry: SessionEntry): SessionSummary {
    const isWaiting = this.options.isWaitingForApproval?.(entry.id) === true || entry.pendingCall?.isAsking === true;
    const status = entryStatus(entry, isWaiting);
    return entry.pendingCall === undefined
      ? { ...entry.brief, status }
      : { ...entry.brief, status, pendingCall: entry.pendingCall };
  }

  /** The summary of one session (`not_found` when unknown). */
  summary(sessionId: string): SessionSummary {
    return this.summarize(this.entry(sessionId));
  }

  /** A session's canonical history, read from its log when it is not loaded. */
  async history(sessionId: string): Promise<SessionHistory> {
    const entry = await this.catalog.find(sessionId);
    return toHistory(await this.catalog.peek(entry), this.summarize(entry).status);
  }

  /** What some turns were about; sessions and turns that are gone are left out. */
  async turns(requests: readonly { readonly sessionId: string; readonly turn: number }[]): Promise<TurnBrief[]> {
    const bySession = new Map<string, number[]>();
    for (const request of requests)
      bySession.set(request.sessionId, [...(bySession.get(request.sessionId) ?? []), request.turn]);
    const briefs: TurnBrief[] = [];
    for (const [sessionId, turns] of bySession) {
      // A session that is gone (pruned, another store's) simply has no briefs: its rows keep their reasons.
      const entry = await this.catalog.find(sessionId).catch(() => undefined);
      if (entry === undefined) continue;
      const state = await this.catalog.peek(entry);
      for (const turn of new Set(turns)) {
        const source = turnSourceOf(state, turn);
        if (source !== undefined) briefs.push(turnBrief(sessionId, turn, source));
      }
    }
    return briefs;
  }

  /** Emits `sessions:tool-called` for each call whose result was just recorded (the registry owns every `sessions:*` event). */
  announceFinishedCalls(entry: SessionEntry, records: readonly SessionRecord[]): void {
    for (const record of records) {
      if (record.type !== 'result') continue;
      const call = entry.state?.calls.get(record.seq);
      if (call !== undefined)
        this.options.events.emit('sessions:tool-called', {
          sessionId: entry.id,
          turn: call.record.turn,
          call: historyCall(call, entry.state),
        });
    }
  }

  /** The loaded state of a session that is running calls (`conflict` when it is not loaded). */
  stateOf(sessionId: string): SessionState {
    const entry = this.entry(sessionId);
    if (entry.state === undefined)
      throw new AppError('conflict', `Session ${sessionId} is not active; its agent must reconnect first.`, {
        sessionId,
      });
    return entry.state;
  }

  /** A session read into memory (`not_found` when unknown). */
  entry(sessionId: string): SessionEntry {
    return this.catalog.entry(sessionId);
  }

  /** A session that is not closed (`conflict` when it is). */
  open(sessionId: string): SessionEntry {
    const entry = this.entry(sessionId);
    if (entry.isClosed)
      throw new AppError('conflict', `Session ${sessionId} is closed; open a new session or resume it.`, { sessionId });
    return entry;
  }

  /** Emits `sessions:changed` for a session (its status may have changed elsewhere: an approval). */
  notifyChanged(sessionId: string): void {
    const entry = this.catalog.peekEntry(sessionId);
    if (entry === undefined) return;
    const session = this.summarize(entry);
    this.options.events.emit('sessions:changed', { session });
    for (const listener of this.changedListeners) this.safely(() => listener(session));
  }

  /** Turn undo (`unsupported` in a process without it). */
  rewinder(): SessionRewinder {
    if (this.options.rewinder === undefined)
      throw new AppError('unsupported', 'Turn undo is not available in this process.');
    return this.options.rewinder;
  }

  /** A problem the user should see: logged and reported to the app. */
  report(message: string): void {
    this.options.logger.warn(message);
    this.options.events.emit('app:problem-reported', { source: 'sessions', message, at: now() });
  }

  /** Calls a listener; one that throws is logged, and the others are still called. */
  safely(deliver: () => void): void {
    try {
      deliver();
    } catch (error) {
      this.options.logger.error('A session listener failed', { error });
    }
  }
}
