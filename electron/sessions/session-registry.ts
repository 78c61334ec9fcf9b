import type { PlainActor } from '../../shared/contract/actor-model';
import type { PendingToolCall } from '../../shared/contract/pending-call-contract';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  messageRoleSchema,
  type RewindMode,
  type SessionSummary,
  type TurnBrief,
} from '../../shared/contract/sessions-contract';
import { AppError } from '../../shared/errors';
import { parseOrThrow } from '../../shared/validation';
import type { Disposer } from '../lib/disposable';
import type { EventHub } from '../lib/event-hub';
import { syncDirectory } from '../files/sync-directory';
import type { Logger } from '../logging/logger';
import { condenseProse } from './logged-value';
import { parseOpenSessionRequest, resolveSessionPlace, type SessionPlace } from './open-session-request';
import { pendingCallAfter } from './pending-call';
import { SessionCatalog } from './session-catalog';
import { compareSummaries, entryStatus, type SessionEntry } from './session-entry';
import type { SessionRecord } from './session-records';
import type { FileInFolder, SessionRewinder } from './session-rewinder';
import { historyCall, toHistory } from './session-history';
import { toBrief, turnSourceOf } from './session-brief';
import { initialState, type SessionState } from './session-state';
import { turnBrief } from './session-summary-parts';
import type {
  AppendMessageRequest,
  BeginTurnRequest,
  OpenSessionRequest,
  SessionHistory,
  SessionRewoundEvent,
  SessionService,
} from './session-types';

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

const messageSchema = z.object({ role: messageRoleSchema, text: z.string() });

function newSessionId(): string {
  return `ses_${Date.now().toString(36)}${randomBytes(5).toString('hex')}`;
}

const now = (): string => new Date().toISOString();

/**
 * The sessions of this core: each an append-only JSONL log under `$VIGIL_HOME/sessions/`, and a
 * state rebuilt by the same reducer live and from the log. Memory stays bounded: a session's
 * full state is held only while an agent is connected (and holds condensed calls, never whole
 * contents); start-up reads the most recent sessions only, and older ones on demand; retention
 * deletes logs idle for `maxAgeMs`. Every change is applied in memory and queued to the log in
 * the same tick (so log order is state order), and awaited on disk before the method returns.
 */
export class SessionRegistry implements SessionService {
  readonly #catalog: SessionCatalog;
  readonly #options: SessionRegistryOptions;
  readonly #rewoundListeners = new Set<(event: SessionRewoundEvent) => void>();
  readonly #changedListeners = new Set<(session: SessionSummary) => void>();

  constructor(options: SessionRegistryOptions) {
    this.#options = options;
    this.#catalog = new SessionCatalog({
      directory: options.directory,
      logger: options.logger,
      report: (message) => this.#report(message),
      changed: (entry) => this.notifyChanged(entry.id),
      shownAtStart: options.shownAtStart,
      maxAgeMs: options.maxAgeMs,
    });
  }

  /**
   * Deletes expired logs, then reads the most recent sessions' summaries (their full state is
   * not kept). No agent is connected yet, so a session that was not closed reads "disconnected"
   * until its agent resumes it. Prunes again every few hours while the registry lives.
   */
  load(): Promise<void> {
    return this.#catalog.load();
  }

  /** Retention changed (config.json): deletes what it expires now, and prunes by it from then on. */
  applyRetention(): Promise<void> {
    return this.#catalog.applyRetention();
  }

  /** Deletes the logs of sessions that are not connected and were last active more than `maxAgeMs` ago. */
  prune(): Promise<readonly string[]> {
    return this.#catalog.prune();
  }

  async open(request: OpenSessionRequest): Promise<SessionSummary> {
    const parsed = parseOpenSessionRequest(request);
    const place = await resolveSessionPlace(parsed.roots, parsed.cwd);
    if (parsed.sessionId !== undefined) {
      const entry = await this.#catalog.find(parsed.sessionId);
      await this.#resume(entry, parsed, place.roots.length > 0 ? place : undefined, true);
      return this.summary(entry.id);
    }
    return this.#create(newSessionId(), parsed, place, true);
  }

  /**
   * Opens the session whose id an agent's own session id names (its hooks): resumed when its log
   * exists (reopened when it was closed), created with exactly this id when not. `isHeld: false` (a
   * one-shot process) writes to it without holding a connection, so nothing is recorded when the process ends.
   */
  async openKeyed(
    sessionId: string,
    request: OpenSessionRequest,
    options: { readonly isHeld: boolean },
  ): Promise<SessionSummary> {
    const parsed = parseOpenSessionRequest({ ...request, sessionId });
    const entry = await this.#catalog.find(sessionId).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'not_found') return undefined;
      throw error;
    });
    if (entry === undefined)
      return this.#create(sessionId, parsed, await resolveSessionPlace(parsed.roots, parsed.cwd), options.isHeld);
    if (entry.isClosed || (options.isHeld && !entry.isConnected))
      await this.#resume(entry, parsed, undefined, options.isHeld);
    return this.summary(sessionId);
  }

  async #resume(
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
    await this.#commit(entry, records);
  }

  async #create(
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
      file: this.#catalog.fileOf(id),
      brief: toBrief(state),
      isClosed: false,
      isConnected: isHeld,
      state,
      loading: undefined,
      writer: undefined,
      isTorn: false,
      running: 0,
    };
    this.#catalog.add(entry);
    await this.#commit(entry, [opened]);
    await syncDirectory(this.#options.directory);
    this.#options.logger.info('session opened', { session: id, agent: parsed.agent, roots: place.roots });
    return this.summary(id);
  }

  async setRoots(sessionId: string, roots: readonly string[], cwd?: string): Promise<SessionSummary> {
    const entry = this.#open(sessionId);
    const place = await resolveSessionPlace(roots, cwd);
    await this.#commit(entry, [{ type: 'roots', at: now(), roots: [...place.roots], cwd: place.cwd }]);
    return this.summary(sessionId);
  }

  async close(sessionId: string): Promise<SessionSummary> {
    const entry = await this.#catalog.find(sessionId);
    if (entry.isClosed) return this.summary(sessionId);
    entry.isConnected = false;
    await this.#commit(entry, [...this.#endingTurn(entry), { type: 'closed', at: now() }]);
    this.#options.logger.info('session closed', { session: sessionId });
    return this.summary(sessionId);
  }

  async disconnect(sessionId: string, reason: string): Promise<SessionSummary> {
    const entry = await this.#catalog.find(sessionId);
    if (entry.isClosed || !entry.isConnected) return this.summary(sessionId);
    entry.isConnected = false;
    await this.#commit(entry, [...this.#endingTurn(entry), { type: 'disconnected', at: now(), reason }]);
    this.#options.logger.info('session disconnected', { session: sessionId, reason });
    return this.summary(sessionId);
  }

  async reconnect(sessionId: string): Promise<SessionSummary> {
    const entry = await this.#catalog.find(sessionId);
    if (entry.isClosed)
      throw new AppError(
        'conflict',
        `Session ${sessionId} was closed; open a new session or resume it with session.open.`,
        { sessionId },
      );
    if (entry.isConnected) return this.summary(sessionId);
    entry.isConnected = true;
    await this.#commit(entry, [{ type: 'resumed', at: now() }]);
    this.#options.logger.info('session reconnected', { session: sessionId });
    return this.summary(sessionId);
  }

  list(): readonly SessionSummary[] {
    return [...this.#catalog.entries()].map((entry) => this.#summarize(entry)).sort(compareSummaries);
  }

  olderCount(): number {
    return this.#catalog.olderCount();
  }

  /** What is in memory (for diagnostics and the bench): sessions read, fully loaded, and not read yet. */
  residency(): ReturnType<SessionCatalog['residency']> {
    return this.#catalog.residency();
  }

  loadOlder(): Promise<void> {
    return this.#catalog.loadOlder();
  }

  get(sessionId: string): SessionSummary {
    return this.summary(sessionId);
  }

  /** The summary of one session (`not_found` when unknown). */
  summary(sessionId: string): SessionSummary {
    return this.#summarize(this.#entry(sessionId));
  }

  async beginTurn(sessionId: string, request: BeginTurnRequest = {}): Promise<{ readonly turn: number }> {
    const entry = this.#open(sessionId);
    const at = now();
    const turn = entry.brief.currentTurn + 1;
    const records: SessionRecord[] = [...this.#endingTurn(entry), { type: 'turn-began', at, turn }];
    if (request.userMessage !== undefined)
      records.push({ type: 'message', at, turn, role: 'user', text: condenseProse(request.userMessage) });
    await this.#commit(entry, records);
    return { turn };
  }

  async endTurn(sessionId: string): Promise<void> {
    const entry = this.#open(sessionId);
    const records = this.#endingTurn(entry);
    if (records.length > 0) await this.#commit(entry, records);
  }

  async appendMessage(sessionId: string, message: AppendMessageRequest): Promise<void> {
    const entry = this.#open(sessionId);
    parseOrThrow(messageSchema, message, 'Invalid message');
    if (!entry.brief.isTurnOpen) await this.beginTurn(sessionId);
    await this.#commit(entry, [
      {
        type: 'message',
        at: now(),
        turn: entry.brief.currentTurn,
        role: message.role,
        text: condenseProse(message.text),
      },
    ]);
  }

  async history(sessionId: string): Promise<SessionHistory> {
    const entry = await this.#catalog.find(sessionId);
    return toHistory(await this.#catalog.peek(entry), this.#summarize(entry).status);
  }

  async turns(requests: readonly { readonly sessionId: string; readonly turn: number }[]): Promise<TurnBrief[]> {
    const bySession = new Map<string, number[]>();
    for (const request of requests)
      bySession.set(request.sessionId, [...(bySession.get(request.sessionId) ?? []), request.turn]);
    const briefs: TurnBrief[] = [];
    for (const [sessionId, turns] of bySession) {
      // A session that is gone (pruned, another store's) simply has no briefs: its rows keep their reasons.
      const entry = await this.#catalog.find(sessionId).catch(() => undefined);
      if (entry === undefined) continue;
      const state = await this.#catalog.peek(entry);
      for (const turn of new Set(turns)) {
        const source = turnSourceOf(state, turn);
        if (source !== undefined) briefs.push(turnBrief(sessionId, turn, source));
      }
    }
    return briefs;
  }

  async planRewind(sessionId: string, toTurn: number, mode: RewindMode): ReturnType<SessionService['planRewind']> {
    const entry = await this.#catalog.find(sessionId);
    requireConversationReachable(entry, mode);
    return this.#rewinder().plan(await this.#catalog.peek(entry), toTurn, mode);
  }

  async rewind(
    sessionId: string,
    toTurn: number,
    mode: RewindMode,
    options: {
      readonly planId?: string;
      readonly actor?: PlainActor;
      readonly overwrite?: readonly FileInFolder[];
    } = {},
  ): ReturnType<SessionService['rewind']> {
    const entry = await this.#catalog.find(sessionId);
    // An ended or disconnected session's code always goes back; its conversation only while its agent can be told.
    requireConversationReachable(entry, mode);
    if (entry.running > 0) {
      throw new AppError('conflict', `Session ${sessionId} is running tool calls; rewind it when they have finished.`, {
        sessionId,
      });
    }
    const outcome = await this.#rewinder().rewind(
      await this.#catalog.peek(entry),
      toTurn,
      mode,
      options.planId,
      options.actor,
      options.overwrite,
    );
    const at = now();
    const rewind = {
      at,
      toTurn,
      mode,
      rewoundTurns: outcome.rewoundTurns,
      restoredDirectories: outcome.restored.map((item) => item.directory),
    };
    await this.#commit(entry, [...this.#endingTurn(entry), { type: 'rewound', ...rewind }]);
    this.#options.events.emit('sessions:rewound', { sessionId, rewind });
    const event: SessionRewoundEvent = { sessionId, rewind, history: await this.history(sessionId) };
    for (const listener of this.#rewoundListeners) this.#safely(() => listener(event));
    return outcome;
  }

  onRewound(listener: (event: SessionRewoundEvent) => void): Disposer<void> {
    this.#rewoundListeners.add(listener);
    return () => this.#rewoundListeners.delete(listener);
  }

  onChanged(listener: (session: SessionSummary) => void): Disposer<void> {
    this.#changedListeners.add(listener);
    return () => this.#changedListeners.delete(listener);
  }

  // ── For the executor (same folder family; not part of the public SessionService) ──

  /**
   * The live state of a session about to run calls: a disconnected session is revived (a call is
   * its agent's activity; `isRevived: false` for a one-shot process, which holds no connection) and
   * loaded; `not_found`, or `conflict` when it was closed. Kept loaded while `startRunning` holds it.
   */
  async activeState(sessionId: string, options: { readonly isRevived?: boolean } = {}): Promise<SessionState> {
    const entry = this.#open(sessionId);
    if (!entry.isConnected && options.isRevived !== false) await this.reconnect(sessionId);
    return entry.state ?? this.#catalog.loaded(entry);
  }

  /** The loaded state of a session that is running calls (`conflict` when it is not loaded). */
  stateOf(sessionId: string): SessionState {
    const entry = this.#entry(sessionId);
    if (entry.state === undefined)
      throw new AppError('conflict', `Session ${sessionId} is not active; its agent must reconnect first.`, {
        sessionId,
      });
    return entry.state;
  }

  /** The current turn, beginning one when none is open, so every call has a turn. */
  async ensureTurn(sessionId: string): Promise<number> {
    const entry = this.#open(sessionId);
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
    const entry = this.#entry(sessionId);
    await this.#commit(entry, records, options);
    this.#announceFinishedCalls(entry, records);
  }

  /** Emits `sessions:tool-called` for each call whose result was just recorded (the registry owns every `sessions:*` event). */
  #announceFinishedCalls(entry: SessionEntry, records: readonly SessionRecord[]): void {
    for (const record of records) {
      if (record.type !== 'result') continue;
      const call = entry.state?.calls.get(record.seq);
      if (call !== undefined)
        this.#options.events.emit('sessions:tool-called', {
          sessionId: entry.id,
          turn: call.record.turn,
          call: historyCall(call, entry.state),
        });
    }
  }

  /** Marks a batch of calls as running (status `working`) until the returned function is called. */
  startRunning(sessionId: string): Disposer<void> {
    const entry = this.#open(sessionId);
    entry.running += 1;
    this.notifyChanged(sessionId);
    return () => {
      entry.running -= 1;
      this.notifyChanged(sessionId);
      void this.#catalog.settle(entry);
    };
  }

  /**
   * The call an agent's hooks answered that waits for its result (at the agent's own permission
   * prompt, or running), replacing the one before; `undefined` when none waits. It ends by itself
   * when that call is recorded, or the turn or the session ends. The UI is told.
   */
  setPendingCall(sessionId: string, call: PendingToolCall | undefined): void {
    const entry = this.#entry(sessionId);
    if (entry.pendingCall === undefined && call === undefined) return;
    entry.pendingCall = call;
    this.notifyChanged(sessionId);
  }

  /** Emits `sessions:changed` for a session (its status may have changed elsewhere: an approval). */
  notifyChanged(sessionId: string): void {
    const entry = this.#catalog.peekEntry(sessionId);
    if (entry === undefined) return;
    const session = this.#summarize(entry);
    this.#options.events.emit('sessions:changed', { session });
    for (const listener of this.#changedListeners) this.#safely(() => listener(session));
  }

  /**
   * Takes in what another Vigil process logged for a session (found by the sessions folder
   * watcher): a session it opened, or one it changed. Sessions this process is connected to or
   * writing are its own and left alone. Emits `sessions:changed` as for this process's own sessions.
   */
  async reloadFromLog(sessionId: string): Promise<void> {
    const entry = await this.#catalog.reload(sessionId);
    if (entry !== undefined) this.notifyChanged(entry.id);
  }

  /**
   * The core is shutting down: every session still connected is recorded as disconnected ("Vigil
   * stopped"), so its last activity stays what it was and its agent can resume it; logs are closed.
   */
  async dispose(): Promise<void> {
    const connected = [...this.#catalog.entries()].filter((entry) => entry.isConnected && !entry.isClosed);
    await Promise.all(
      connected.map((entry) =>
        this.disconnect(entry.id, 'Vigil stopped').catch((error: unknown) =>
          this.#options.logger.warn('could not record a disconnection', { session: entry.id, error }),
        ),
      ),
    );
    await this.#catalog.dispose();
  }

  #commit(
    entry: SessionEntry,
    records: readonly SessionRecord[],
    options: { readonly durable?: boolean } = {},
  ): Promise<void> {
    entry.pendingCall = pendingCallAfter(entry.pendingCall, records);
    return this.#catalog.commit(entry, records, options);
  }

  /** A turn-ended record when a turn is open (closing, disconnecting, a new turn). */
  #endingTurn(entry: SessionEntry): SessionRecord[] {
    return entry.brief.isTurnOpen ? [{ type: 'turn-ended', at: now(), turn: entry.brief.currentTurn }] : [];
  }

  #summarize(entry: SessionEntry): SessionSummary {
    const isWaiting = this.#options.isWaitingForApproval?.(entry.id) === true || entry.pendingCall?.isAsking === true;
    const status = entryStatus(entry, isWaiting);
    return entry.pendingCall === undefined
      ? { ...entry.brief, status }
      : { ...entry.brief, status, pendingCall: entry.pendingCall };
  }

  #entry(sessionId: string): SessionEntry {
    return this.#catalog.entry(sessionId);
  }

  #open(sessionId: string): SessionEntry {
    const entry = this.#entry(sessionId);
    if (entry.isClosed)
      throw new AppError('conflict', `Session ${sessionId} is closed; open a new session or resume it.`, { sessionId });
    return entry;
  }

  #rewinder(): SessionRewinder {
    if (this.#options.rewinder === undefined)
      throw new AppError('unsupported', 'Turn undo is not available in this process.');
    return this.#options.rewinder;
  }

  #report(message: string): void {
    this.#options.logger.warn(message);
    this.#options.events.emit('app:problem-reported', { source: 'sessions', message, at: now() });
  }

  #safely(deliver: () => void): void {
    try {
      deliver();
    } catch (error) {
      this.#options.logger.error('A session listener failed', { error });
    }
  }
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
