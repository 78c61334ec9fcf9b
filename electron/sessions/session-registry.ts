import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { messageRoleSchema, sessionIdSchema, type RewindMode, type SessionStatus, type SessionSummary } from '../../shared/contract/sessions-contract';
import { AppError } from '../../shared/errors';
import { parseOrThrow } from '../../shared/validation';
import type { EventHub, Unsubscribe } from '../core/event-hub';
import { syncDirectory } from '../files/sync-directory';
import type { Logger } from '../logging/logger';
import { parseOpenSessionRequest, resolveSessionPlace } from './open-session-request';
import { loadSessionLog, loadSessionLogs } from './load-session-logs';
import { SessionLogWriter } from './session-log';
import { capLoggedStrings, type SessionRecord } from './session-records';
import { applyRecord, initialState, toHistory, toSummary, type SessionState } from './session-state';
import type { SessionRewinder } from './session-rewinder';
import type { AppendMessageRequest, BeginTurnRequest, OpenSessionRequest, SessionHistory, SessionRewoundEvent, SessionService } from './session-types';

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
}

interface Entry {
  readonly state: SessionState;
  writer: SessionLogWriter | undefined;
  isTorn: boolean;
  running: number;
}

const messageSchema = z.object({ role: messageRoleSchema, text: z.string() });

function newSessionId(): string {
  return `ses_${Date.now().toString(36)}${randomBytes(5).toString('hex')}`;
}

/**
 * The sessions of this core: each an append-only JSONL log under `$VIGIL_HOME/sessions/`, reloaded
 * at start (a torn last line is reported, never fatal), and a live state rebuilt by the same
 * reducer. Every change is applied in memory and queued to the log in the same tick (so log order
 * is state order), and awaited on disk before the method returns.
 */
export class SessionRegistry implements SessionService {
  readonly #entries = new Map<string, Entry>();
  readonly #options: SessionRegistryOptions;
  readonly #rewoundListeners = new Set<(event: SessionRewoundEvent) => void>();
  readonly #changedListeners = new Set<(session: SessionSummary) => void>();

  constructor(options: SessionRegistryOptions) {
    this.#options = options;
  }

  /** Reads every session log; sessions that were not closed come back idle, ready to resume. */
  async load(): Promise<void> {
    for (const { state, isTorn } of await loadSessionLogs(this.#options.directory, (message) => this.#report(message))) {
      this.#entries.set(state.id, { state, writer: undefined, isTorn, running: 0 });
    }
  }

  async open(request: OpenSessionRequest): Promise<SessionSummary> {
    const parsed = parseOpenSessionRequest(request);
    const place = await resolveSessionPlace(parsed.roots, parsed.cwd);
    const at = new Date().toISOString();
    if (parsed.sessionId !== undefined) {
      const entry = this.#entry(parsed.sessionId);
      const records: SessionRecord[] = [{ type: 'resumed', at, ...(parsed.client === undefined ? {} : { client: parsed.client }) }];
      if (place.roots.length > 0) records.push({ type: 'roots', at, roots: [...place.roots], ...(place.cwd === undefined ? {} : { cwd: place.cwd }) });
      await this.#commit(entry, records);
      return this.summary(entry.state.id);
    }
    const id = newSessionId();
    const opened: Extract<SessionRecord, { type: 'opened' }> = { type: 'opened', v: 1, at, id, agent: parsed.agent, ...(parsed.client === undefined ? {} : { client: parsed.client }), roots: [...place.roots], ...(place.cwd === undefined ? {} : { cwd: place.cwd }) };
    const entry: Entry = { state: initialState(opened), writer: undefined, isTorn: false, running: 0 };
    this.#entries.set(id, entry);
    await this.#commit(entry, [opened]);
    await syncDirectory(this.#options.directory);
    this.#options.logger.info('session opened', { session: id, agent: parsed.agent, roots: place.roots });
    return this.summary(id);
  }

  async setRoots(sessionId: string, roots: readonly string[], cwd?: string): Promise<SessionSummary> {
    const entry = this.#open(sessionId);
    const place = await resolveSessionPlace(roots, cwd);
    await this.#commit(entry, [{ type: 'roots', at: new Date().toISOString(), roots: [...place.roots], ...(place.cwd === undefined ? {} : { cwd: place.cwd }) }]);
    return this.summary(sessionId);
  }

  async close(sessionId: string): Promise<SessionSummary> {
    const entry = this.#entry(sessionId);
    if (entry.state.isClosed) return this.summary(sessionId);
    const at = new Date().toISOString();
    const records: SessionRecord[] = entry.state.isTurnOpen ? [{ type: 'turn-ended', at, turn: entry.state.currentTurn }] : [];
    records.push({ type: 'closed', at });
    await this.#commit(entry, records);
    await entry.writer?.close();
    entry.writer = undefined;
    this.#options.logger.info('session closed', { session: sessionId });
    return this.summary(sessionId);
  }

  list(): readonly SessionSummary[] {
    const all = [...this.#entries.values()].map((entry) => this.#summarize(entry));
    return all.sort((a, b) => Number(a.status === 'ended') - Number(b.status === 'ended') || b.updatedAt.localeCompare(a.updatedAt));
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
    const at = new Date().toISOString();
    const turn = entry.state.currentTurn + 1;
    const records: SessionRecord[] = entry.state.isTurnOpen ? [{ type: 'turn-ended', at, turn: entry.state.currentTurn }] : [];
    records.push({ type: 'turn-began', at, turn });
    if (request.userMessage !== undefined) records.push({ type: 'message', at, turn, role: 'user', text: String(capLoggedStrings(request.userMessage)) });
    await this.#commit(entry, records);
    return { turn };
  }

  async endTurn(sessionId: string): Promise<void> {
    const entry = this.#open(sessionId);
    if (!entry.state.isTurnOpen) return;
    await this.#commit(entry, [{ type: 'turn-ended', at: new Date().toISOString(), turn: entry.state.currentTurn }]);
  }

  async appendMessage(sessionId: string, message: AppendMessageRequest): Promise<void> {
    const entry = this.#open(sessionId);
    parseOrThrow(messageSchema, message, 'Invalid message');
    if (!entry.state.isTurnOpen) await this.beginTurn(sessionId);
    await this.#commit(entry, [{ type: 'message', at: new Date().toISOString(), turn: entry.state.currentTurn, role: message.role, text: String(capLoggedStrings(message.text)) }]);
  }

  history(sessionId: string): SessionHistory {
    const entry = this.#entry(sessionId);
    return toHistory(entry.state, this.#status(entry));
  }

  planRewind(sessionId: string, toTurn: number, mode: RewindMode): ReturnType<SessionService['planRewind']> {
    return this.#rewinder().plan(this.#entry(sessionId).state, toTurn, mode);
  }

  async rewind(sessionId: string, toTurn: number, mode: RewindMode, options: { readonly planId?: string } = {}): ReturnType<SessionService['rewind']> {
    const entry = this.#open(sessionId);
    if (entry.running > 0) {
      throw new AppError('conflict', `Session ${sessionId} is running tool calls; rewind it when they have finished.`, { sessionId });
    }
    const outcome = await this.#rewinder().rewind(entry.state, toTurn, mode, options.planId);
    const at = new Date().toISOString();
    const rewind = { at, toTurn, mode, rewoundTurns: outcome.rewoundTurns, restoredDirectories: outcome.restored.map((item) => item.directory) };
    const records: SessionRecord[] = entry.state.isTurnOpen ? [{ type: 'turn-ended', at, turn: entry.state.currentTurn }] : [];
    records.push({ type: 'rewound', ...rewind });
    await this.#commit(entry, records);
    this.#options.events.emit('sessions:rewound', { sessionId, rewind });
    const event: SessionRewoundEvent = { sessionId, rewind, history: this.history(sessionId) };
    for (const listener of this.#rewoundListeners) this.#safely(() => listener(event));
    return outcome;
  }

  onRewound(listener: (event: SessionRewoundEvent) => void): Unsubscribe {
    this.#rewoundListeners.add(listener);
    return () => this.#rewoundListeners.delete(listener);
  }

  onChanged(listener: (session: SessionSummary) => void): Unsubscribe {
    this.#changedListeners.add(listener);
    return () => this.#changedListeners.delete(listener);
  }

  // ── For the executor (same folder family; not part of the public SessionService) ──

  /** The live state of an open session (`not_found`, or `conflict` when it was closed). */
  openState(sessionId: string): SessionState {
    return this.#open(sessionId).state;
  }

  /** The live state of a session, open or closed (`not_found` when unknown). */
  stateOf(sessionId: string): SessionState {
    return this.#entry(sessionId).state;
  }

  /** The current turn, beginning one when none is open, so every call has a turn. */
  async ensureTurn(sessionId: string): Promise<number> {
    const entry = this.#open(sessionId);
    return entry.state.isTurnOpen ? entry.state.currentTurn : (await this.beginTurn(sessionId)).turn;
  }

  /** The next call sequence number of a session (unique in its log). */
  nextSeq(sessionId: string): number {
    const state = this.#open(sessionId).state;
    state.lastSeq += 1;
    return state.lastSeq;
  }

  /**
   * Writes call records (decision, checkpoints; or the result) and updates the live state.
   * `durable: false` waits for the write only: a call's decision need not be synced before it runs,
   * since its result's sync (the same file) follows before the result is returned.
   */
  async record(sessionId: string, records: readonly SessionRecord[], options: { readonly durable?: boolean } = {}): Promise<void> {
    await this.#commit(this.#entry(sessionId), records, options);
  }

  /** Marks a batch of calls as running (status `running`) until the returned function is called. */
  startRunning(sessionId: string): () => void {
    const entry = this.#open(sessionId);
    entry.running += 1;
    this.notifyChanged(sessionId);
    return () => {
      entry.running -= 1;
      this.notifyChanged(sessionId);
    };
  }

  /** Emits `sessions:changed` for a session (its status may have changed elsewhere: an approval). */
  notifyChanged(sessionId: string): void {
    const entry = this.#entries.get(sessionId);
    if (entry === undefined) return;
    const session = this.#summarize(entry);
    this.#options.events.emit('sessions:changed', { session });
    for (const listener of this.#changedListeners) this.#safely(() => listener(session));
  }

  /**
   * Takes in what another Vigil process logged for a session (found by the sessions folder
   * watcher): a session it opened, or one it changed. Sessions this process is writing are its own
   * and left alone. Emits `sessions:changed` as for this process's own sessions.
   */
  async reloadFromLog(sessionId: string): Promise<void> {
    const known = this.#entries.get(sessionId);
    if (known !== undefined && (known.writer !== undefined || known.running > 0)) return;
    const loaded = await loadSessionLog(path.join(this.#options.directory, `${sessionId}.jsonl`), (message) => this.#report(message));
    const now = this.#entries.get(sessionId);
    if (loaded === undefined || (now !== undefined && (now.writer !== undefined || now.running > 0))) return;
    this.#entries.set(sessionId, { state: loaded.state, writer: undefined, isTorn: loaded.isTorn, running: 0 });
    this.notifyChanged(sessionId);
  }

  /** Closes every log file (the core is shutting down); sessions stay resumable. */
  async dispose(): Promise<void> {
    await Promise.all([...this.#entries.values()].map((entry) => entry.writer?.close() ?? Promise.resolve()));
  }

  async #commit(entry: Entry, records: readonly SessionRecord[], options: { readonly durable?: boolean } = {}): Promise<void> {
    const writer = (entry.writer ??= new SessionLogWriter(path.join(this.#options.directory, `${entry.state.id}.jsonl`), { isTorn: entry.isTorn }));
    entry.isTorn = false;
    for (const record of records) applyRecord(entry.state, record);
    const written = Promise.all(records.map((record) => writer.append(record, options)));
    this.notifyChanged(entry.state.id);
    try {
      await written;
    } catch (error) {
      this.#report(`Session ${entry.state.id}: the log could not be written (${(error as Error).message}); the change is live but not on disk.`);
      throw new AppError('io_error', `The session log could not be written: ${(error as Error).message}. Check the free space and permissions of ${this.#options.directory}.`, { sessionId: entry.state.id });
    }
  }

  #status(entry: Entry): SessionStatus {
    if (entry.state.isClosed) return 'ended';
    if (this.#options.isWaitingForApproval?.(entry.state.id) === true) return 'waiting-approval';
    return entry.running > 0 ? 'running' : 'idle';
  }

  #summarize(entry: Entry): SessionSummary {
    return toSummary(entry.state, this.#status(entry));
  }

  #entry(sessionId: string): Entry {
    const id = parseOrThrow(sessionIdSchema, sessionId, 'Invalid session id');
    const entry = this.#entries.get(id);
    if (entry === undefined) throw new AppError('not_found', `There is no session ${id}; open one first (or list them with "vigil sessions list").`, { sessionId: id });
    return entry;
  }

  #open(sessionId: string): Entry {
    const entry = this.#entry(sessionId);
    if (entry.state.isClosed) throw new AppError('conflict', `Session ${sessionId} is closed; open a new session or resume it.`, { sessionId });
    return entry;
  }

  #rewinder(): SessionRewinder {
    if (this.#options.rewinder === undefined) throw new AppError('unsupported', 'Turn undo is not available in this process.');
    return this.#options.rewinder;
  }

  #report(message: string): void {
    this.#options.logger.warn(message);
    this.#options.events.emit('app:problem-reported', { source: 'sessions', message, at: new Date().toISOString() });
  }

  #safely(deliver: () => void): void {
    try {
      deliver();
    } catch (error) {
      this.#options.logger.error('A session listener failed', { error });
    }
  }
}
