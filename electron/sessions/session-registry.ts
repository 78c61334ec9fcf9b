import type { PendingToolCall } from '../../shared/contract/pending-call-contract';
import { z } from 'zod';
import { lazySchema } from '../../shared/lazy-schema';
import {
  messageRoleSchema,
  type RewindMode,
  type SessionSummary,
  type TurnBrief,
} from '../../shared/contract/sessions-contract';
import { parseOrThrow } from '../../shared/validation';
import type { Disposer } from '../lib';
import type { CallLog } from './call-log';
import { condenseProse } from './logged-value';
import { now, SessionBook, type SessionRegistryOptions } from './session-book';
import type { SessionCatalog } from './session-catalog';
import { compareSummaries } from './session-entry';
import {
  closeSession,
  disconnectSession,
  disposeSessions,
  openKeyedSession,
  openSession,
  reconnectSession,
  setSessionRoots,
} from './session-lifecycle';
import type { SessionRecord } from './session-records';
import { planSessionRewind, rewindSession, type RewindOptions } from './session-rewinding';
import type { SessionState } from './session-state';
import type {
  AppendMessageRequest,
  BeginTurnRequest,
  OpenSessionRequest,
  SessionHistory,
  SessionRewoundEvent,
  SessionService,
} from './session-types';

export type { SessionRegistryOptions } from './session-book';

const messageSchema = lazySchema(() => z.object({ role: messageRoleSchema, text: z.string() }));

/**
 * The sessions of this core: each an append-only JSONL log under `$VIGIL_HOME/sessions/`, and a
 * state rebuilt by the same reducer live and from the log. Memory stays bounded: a session's
 * full state is held only while an agent is connected (and holds condensed calls, never whole
 * contents); start-up reads the most recent sessions only, and older ones on demand; retention
 * deletes logs idle for `maxAgeMs`. Every change is applied in memory and queued to the log in
 * the same tick (so log order is state order), and awaited on disk before the method returns.
 */
export class SessionRegistry implements SessionService, CallLog {
  readonly #book: SessionBook;

  constructor(options: SessionRegistryOptions) {
    this.#book = new SessionBook(options);
  }

  /**
   * Deletes expired logs, then reads the most recent sessions' summaries (their full state is
   * not kept). No agent is connected yet, so a session that was not closed reads "disconnected"
   * until its agent resumes it. Prunes again every few hours while the registry lives.
   */
  load(): Promise<void> {
    return this.#book.catalog.load();
  }

  /** Retention changed (config.json): deletes what it expires now, and prunes by it from then on. */
  applyRetention(): Promise<void> {
    return this.#book.catalog.applyRetention();
  }

  /** Deletes the logs of sessions that are not connected and were last active more than `maxAgeMs` ago. */
  prune(): Promise<readonly string[]> {
    return this.#book.catalog.prune();
  }

  open(request: OpenSessionRequest): Promise<SessionSummary> {
    return openSession(this.#book, request);
  }

  /**
   * Opens the session whose id an agent's own session id names (its hooks): resumed when its log
   * exists (reopened when it was closed), created with exactly this id when not. `isHeld: false` (a
   * one-shot process) writes to it without holding a connection, so nothing is recorded when the process ends.
   */
  openKeyed(
    sessionId: string,
    request: OpenSessionRequest,
    options: { readonly isHeld: boolean },
  ): Promise<SessionSummary> {
    return openKeyedSession(this.#book, sessionId, request, options);
  }

  setRoots(sessionId: string, roots: readonly string[], cwd?: string): Promise<SessionSummary> {
    return setSessionRoots(this.#book, sessionId, roots, cwd);
  }

  close(sessionId: string): Promise<SessionSummary> {
    return closeSession(this.#book, sessionId);
  }

  disconnect(sessionId: string, reason: string): Promise<SessionSummary> {
    return disconnectSession(this.#book, sessionId, reason);
  }

  reconnect(sessionId: string): Promise<SessionSummary> {
    return reconnectSession(this.#book, sessionId);
  }

  list(): readonly SessionSummary[] {
    return [...this.#book.catalog.entries()].map((entry) => this.#book.summarize(entry)).sort(compareSummaries);
  }

  olderCount(): number {
    return this.#book.catalog.olderCount();
  }

  /** What is in memory (for diagnostics and the bench): sessions read, fully loaded, and not read yet. */
  residency(): ReturnType<SessionCatalog['residency']> {
    return this.#book.catalog.residency();
  }

  loadOlder(): Promise<void> {
    return this.#book.catalog.loadOlder();
  }

  get(sessionId: string): SessionSummary {
    return this.summary(sessionId);
  }

  /** The summary of one session (`not_found` when unknown). */
  summary(sessionId: string): SessionSummary {
    return this.#book.summary(sessionId);
  }

  async beginTurn(sessionId: string, request: BeginTurnRequest = {}): Promise<{ readonly turn: number }> {
    const entry = this.#book.open(sessionId);
    const at = now();
    const turn = entry.brief.currentTurn + 1;
    const records: SessionRecord[] = [...this.#book.endingTurn(entry), { type: 'turn-began', at, turn }];
    if (request.userMessage !== undefined)
      records.push({ type: 'message', at, turn, role: 'user', text: condenseProse(request.userMessage) });
    await this.#book.commit(entry, records);
    return { turn };
  }

  async endTurn(sessionId: string): Promise<void> {
    const entry = this.#book.open(sessionId);
    const records = this.#book.endingTurn(entry);
    if (records.length > 0) await this.#book.commit(entry, records);
  }

  async appendMessage(sessionId: string, message: AppendMessageRequest): Promise<void> {
    const entry = this.#book.open(sessionId);
    parseOrThrow(messageSchema, message, 'Invalid message');
    if (!entry.brief.isTurnOpen) await this.beginTurn(sessionId);
    await this.#book.commit(entry, [
      {
        type: 'message',
        at: now(),
        turn: entry.brief.currentTurn,
        role: message.role,
        text: condenseProse(message.text),
      },
    ]);
  }

  history(sessionId: string): Promise<SessionHistory> {
    return this.#book.history(sessionId);
  }

  turns(requests: readonly { readonly sessionId: string; readonly turn: number }[]): Promise<TurnBrief[]> {
    return this.#book.turns(requests);
  }

  planRewind(sessionId: string, toTurn: number, mode: RewindMode): ReturnType<SessionService['planRewind']> {
    return planSessionRewind(this.#book, sessionId, toTurn, mode);
  }

  rewind(
    sessionId: string,
    toTurn: number,
    mode: RewindMode,
    options: RewindOptions = {},
  ): ReturnType<SessionService['rewind']> {
    return rewindSession(this.#book, sessionId, toTurn, mode, options);
  }

  onRewound(listener: (event: SessionRewoundEvent) => void): Disposer<void> {
    this.#book.rewoundListeners.add(listener);
    return () => this.#book.rewoundListeners.delete(listener);
  }

  onChanged(listener: (session: SessionSummary) => void): Disposer<void> {
    this.#book.changedListeners.add(listener);
    return () => this.#book.changedListeners.delete(listener);
  }

  // ── For the executor (same folder family; not part of the public SessionService) ──

  /**
   * The live state of a session about to run calls: a disconnected session is revived (a call is
   * its agent's activity; `isRevived: false` for a one-shot process, which holds no connection) and
   * loaded; `not_found`, or `conflict` when it was closed. Kept loaded while `startRunning` holds it.
   */
  async activeState(sessionId: string, options: { readonly isRevived?: boolean } = {}): Promise<SessionState> {
    const entry = this.#book.open(sessionId);
    if (!entry.isConnected && options.isRevived !== false) await this.reconnect(sessionId);
    return entry.state ?? this.#book.catalog.loaded(entry);
  }

  /** The loaded state of a session that is running calls (`conflict` when it is not loaded). */
  stateOf(sessionId: string): SessionState {
    return this.#book.stateOf(sessionId);
  }

  /** The current turn, beginning one when none is open, so every call has a turn. */
  async ensureTurn(sessionId: string): Promise<number> {
    const entry = this.#book.open(sessionId);
    return entry.brief.isTurnOpen ? entry.brief.currentTurn : (await this.beginTurn(sessionId)).turn;
  }

  /** The next call sequence number of a session (unique in its log). */
  nextSeq(sessionId: string): number {
    const state = this.stateOf(sessionId);
    state.lastSeq += 1;
    return state.lastSeq;
  }

  /**
   * Writes call records (decision, checkpoints; or the result) and updates the live state.
   * `durable: false` waits for the write only: a call's decision need not be synced before it runs,
   * since its result's sync (the same file) follows before the result is returned.
   */
  async record(
    sessionId: string,
    records: readonly SessionRecord[],
    options: { readonly durable?: boolean } = {},
  ): Promise<void> {
    const entry = this.#book.entry(sessionId);
    await this.#book.commit(entry, records, options);
    this.#book.announceFinishedCalls(entry, records);
  }

  /** Marks a batch of calls as running (status `working`) until the returned function is called. */
  startRunning(sessionId: string): Disposer<void> {
    const entry = this.#book.open(sessionId);
    entry.running += 1;
    this.notifyChanged(sessionId);
    return () => {
      entry.running -= 1;
      this.notifyChanged(sessionId);
      void this.#book.catalog.settle(entry);
    };
  }

  /**
   * The call an agent's hooks answered that waits for its result (at the agent's own permission
   * prompt, or running), replacing the one before; `undefined` when none waits. It ends by itself
   * when that call is recorded, or the turn or the session ends. The UI is told.
   */
  setPendingCall(sessionId: string, call: PendingToolCall | undefined): void {
    const entry = this.#book.entry(sessionId);
    if (entry.pendingCall === undefined && call === undefined) return;
    entry.pendingCall = call;
    this.notifyChanged(sessionId);
  }

  /** Emits `sessions:changed` for a session (its status may have changed elsewhere: an approval). */
  notifyChanged(sessionId: string): void {
    this.#book.notifyChanged(sessionId);
  }

  /**
   * Takes in what another Vigil process logged for a session (found by the sessions folder
   * watcher): a session it opened, or one it changed. Sessions this process is connected to or
   * writing are its own and left alone. Emits `sessions:changed` as for this process's own sessions.
   */
  async reloadFromLog(sessionId: string): Promise<void> {
    const entry = await this.#book.catalog.reload(sessionId);
    if (entry !== undefined) this.notifyChanged(entry.id);
  }

  /**
   * The core is shutting down: every session still connected is recorded as disconnected ("Vigil
   * stopped"), so its last activity stays what it was and its agent can resume it; logs are closed.
   */
  dispose(): Promise<void> {
    return disposeSessions(this.#book);
  }
}
