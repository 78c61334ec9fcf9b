import path from 'node:path';
import { sessionIdSchema } from '../../shared/contract/sessions-contract';
import { AppError } from '../../shared/errors';
import { parseOrThrow } from '../../shared/validation';
import type { Logger } from '../logging';
import { listSessionLogs, loadSessionLog, type SessionLogFile } from './load-session-logs';
import type { SessionEntry } from './session-entry';
import { pruneSessionLogs, sessionPruneIntervalMs } from './session-retention';
import { SessionLogWriter } from './session-log';
import type { SessionRecord } from './session-records';
import { toBrief } from './session-brief';
import { applyRecord, type SessionState } from './session-state';

/** Where a catalog's logs are and how many it reads at start. */
export interface SessionCatalogOptions {
  readonly directory: string;
  readonly logger: Logger;
  /** Problems found in a log at start-up (a torn last line) or when writing it, for the log and the UI. */
  readonly report: (message: string) => void;
  /** A session changed in memory (its log write is under way). */
  readonly changed: (entry: SessionEntry) => void;
  readonly shownAtStart?: number;
  /** Retention (`sessions.maxDays`), read at each prune (config.json can change it); without it nothing is ever deleted (a read-only CLI listing). */
  readonly maxAgeMs?: () => number;
}

/** The default number of sessions start-up reads. */
export const defaultShownAtStart = 200;

/** A session's entry as read from its log: its summary only, nothing connected, loaded or running. */
function unloadedEntry(state: SessionState, file: string, isTorn: boolean): SessionEntry {
  return {
    id: state.id,
    file,
    brief: toBrief(state),
    isClosed: state.isClosed,
    isConnected: false,
    state: undefined,
    loading: undefined,
    writer: undefined,
    isTorn,
    running: 0,
  };
}

/**
 * The registry's sessions and their logs on disk: which are read (their summaries), which are
 * not yet (older ones, read on demand), whose full state is loaded, and retention. A session's
 * full state is kept only while it is connected or runs calls (`settle` unloads it otherwise).
 */
export class SessionCatalog {
  readonly #entries = new Map<string, SessionEntry>();
  readonly #unread = new Map<string, SessionLogFile>();
  readonly #options: SessionCatalogOptions;
  #pruneTimer: NodeJS.Timeout | undefined;
  #isDisposed = false;

  constructor(options: SessionCatalogOptions) {
    this.#options = options;
  }

  /** Deletes expired logs (with retention), reads the most recent sessions' summaries, and prunes every few hours from now on. */
  async load(): Promise<void> {
    const files = await listSessionLogs(this.#options.directory);
    const maxAgeMs = this.#options.maxAgeMs?.();
    const expired =
      maxAgeMs === undefined
        ? []
        : await pruneSessionLogs(
            files.map((file) => ({ ...file, lastActiveAt: file.modifiedAt })),
            Date.now() - maxAgeMs,
            maxAgeMs,
            this.#options.logger,
          );
    const deleted = new Set(expired);
    const kept = files.filter((file) => !deleted.has(file.id));
    const shown = this.#options.shownAtStart ?? defaultShownAtStart;
    for (const file of kept.slice(0, shown)) await this.#read(file, true);
    for (const file of kept.slice(shown)) this.#unread.set(file.id, file);
    this.#schedulePrune();
  }

  /** Retention changed (config.json): prunes by it now, and schedules the next prune by it. */
  async applyRetention(): Promise<void> {
    clearTimeout(this.#pruneTimer);
    await this.prune();
    this.#schedulePrune();
  }

  /** The next prune: every few hours, sooner when retention is shorter (as it is now: config.json can change it). */
  #schedulePrune(): void {
    const maxAgeMs = this.#options.maxAgeMs?.();
    if (maxAgeMs === undefined || this.#isDisposed) return;
    clearTimeout(this.#pruneTimer);
    this.#pruneTimer = setTimeout(
      () => {
        void this.prune().finally(() => this.#schedulePrune());
      },
      Math.min(sessionPruneIntervalMs, maxAgeMs),
    );
    this.#pruneTimer.unref();
  }

  /** Deletes the logs of sessions that are not connected, run nothing, and were last active more than `maxAgeMs` ago. */
  async prune(): Promise<readonly string[]> {
    const maxAgeMs = this.#options.maxAgeMs?.();
    if (maxAgeMs === undefined) return [];
    const candidates = [...this.#entries.values()]
      .filter((entry) => !entry.isConnected && entry.running === 0)
      .map((entry) => ({ id: entry.id, file: entry.file, lastActiveAt: Date.parse(entry.brief.lastActiveAt) }));
    const unread = [...this.#unread.values()].map((file) => ({ ...file, lastActiveAt: file.modifiedAt }));
    const deleted = await pruneSessionLogs(
      [...candidates, ...unread],
      Date.now() - maxAgeMs,
      maxAgeMs,
      this.#options.logger,
    );
    for (const id of deleted) {
      // A session that came back while its log was being deleted keeps its entry (and starts a new log).
      if (this.#entries.get(id)?.isConnected !== true) this.#entries.delete(id);
      this.#unread.delete(id);
    }
    return deleted;
  }

  /** How many sessions are read (summaries in memory), how many have their full state loaded, how many are not read yet. */
  residency(): { readonly read: number; readonly loaded: number; readonly unread: number } {
    const entries = [...this.#entries.values()];
    return {
      read: entries.length,
      loaded: entries.filter((entry) => entry.state !== undefined).length,
      unread: this.#unread.size,
    };
  }

  /** How many sessions on disk are not read yet. */
  olderCount(): number {
    return this.#unread.size;
  }

  /** Reads every session not read yet. */
  async loadOlder(): Promise<void> {
    for (const file of [...this.#unread.values()]) await this.#read(file, false);
  }

  /** Every session read so far. */
  entries(): IterableIterator<SessionEntry> {
    return this.#entries.values();
  }

  /** Adds a new session. */
  add(entry: SessionEntry): void {
    this.#entries.set(entry.id, entry);
  }

  /** The log file of a session id. */
  fileOf(id: string): string {
    return path.join(this.#options.directory, `${id}.jsonl`);
  }

  /** A read session by id, or undefined. */
  peekEntry(id: string): SessionEntry | undefined {
    return this.#entries.get(id);
  }

  /** A read session (`not_found` when unknown or not read yet). */
  entry(sessionId: string): SessionEntry {
    const id = parseOrThrow(sessionIdSchema, sessionId, 'Invalid session id');
    const entry = this.#entries.get(id);
    if (entry === undefined)
      throw new AppError(
        'not_found',
        `There is no session ${id}; open one first (or list them with "vigil sessions list").`,
        { sessionId: id },
      );
    return entry;
  }

  /** A session by id, read from its log when it is older than those shown (`not_found` when unknown). */
  async find(sessionId: string): Promise<SessionEntry> {
    const id = parseOrThrow(sessionIdSchema, sessionId, 'Invalid session id');
    const unread = this.#unread.get(id);
    if (unread !== undefined && !this.#entries.has(id)) await this.#read(unread, false);
    return this.entry(id);
  }

  /** The full state, loaded and kept (to change it). */
  loaded(entry: SessionEntry): Promise<SessionState> {
    if (entry.state !== undefined) return Promise.resolve(entry.state);
    entry.loading ??= this.#readState(entry.file).then(
      (state) => {
        entry.loading = undefined;
        entry.state ??= state;
        return entry.state;
      },
      (error: unknown) => {
        entry.loading = undefined;
        throw error;
      },
    );
    return entry.loading;
  }

  /** The full state to read: the loaded one, or one read from the log and not kept. */
  async peek(entry: SessionEntry): Promise<SessionState> {
    return entry.state ?? entry.loading ?? this.#readState(entry.file);
  }

  /**
   * Applies records to a session (loading its state first when it is unloaded) and queues them to
   * its log in the same tick, so log order is state order; resolves once they are on disk, then
   * unloads the session again if nobody is connected to it.
   */
  async commit(
    entry: SessionEntry,
    records: readonly SessionRecord[],
    options: { readonly durable?: boolean } = {},
  ): Promise<void> {
    const state = entry.state ?? (await this.loaded(entry));
    const writer = (entry.writer ??= new SessionLogWriter(entry.file, { isTorn: entry.isTorn }));
    entry.isTorn = false;
    for (const record of records) applyRecord(state, record);
    entry.brief = toBrief(state);
    entry.isClosed = state.isClosed;
    const written = Promise.all(records.map((record) => writer.append(record, options)));
    this.#options.changed(entry);
    try {
      await written;
    } catch (error) {
      this.#options.report(
        `Session ${entry.id}: the log could not be written (${(error as Error).message}); the change is live but not on disk.`,
      );
      throw new AppError(
        'io_error',
        `The session log could not be written: ${(error as Error).message}. Check the free space and permissions of ${this.#options.directory}.`,
        { sessionId: entry.id },
      );
    } finally {
      await this.settle(entry);
    }
  }

  /**
   * Re-reads the summary of a session another Vigil process logged (a session it opened, or one it
   * changed). A session this process is connected to, writing or running calls in is its own and is
   * left alone. Gives the entry when it was (re)read.
   */
  async reload(sessionId: string): Promise<SessionEntry | undefined> {
    if (!sessionIdSchema.safeParse(sessionId).success) return undefined;
    const isOwn = (entry: SessionEntry | undefined): boolean =>
      entry !== undefined && (entry.isConnected || entry.writer !== undefined || entry.running > 0);
    if (isOwn(this.#entries.get(sessionId))) return undefined;
    const file = this.fileOf(sessionId);
    const loaded = await loadSessionLog(file, this.#options.report);
    if (loaded === undefined || isOwn(this.#entries.get(sessionId))) return undefined;
    const { state, isTorn } = loaded;
    const entry = unloadedEntry(state, file, isTorn);
    this.#unread.delete(sessionId);
    this.#entries.set(sessionId, entry);
    return entry;
  }

  /** Unloads a session nobody is connected to and nothing runs in: its log is closed, its state dropped. */
  async settle(entry: SessionEntry): Promise<void> {
    if (entry.isConnected || entry.running > 0 || entry.state === undefined) return;
    const writer = entry.writer;
    entry.state = undefined;
    entry.writer = undefined;
    await writer?.close();
  }

  /** Stops pruning and closes every log. */
  async dispose(): Promise<void> {
    this.#isDisposed = true;
    clearTimeout(this.#pruneTimer);
    await Promise.all([...this.#entries.values()].map((entry) => entry.writer?.close() ?? Promise.resolve()));
  }

  async #readState(file: string): Promise<SessionState> {
    const loaded = await loadSessionLog(file, () => undefined);
    if (loaded === undefined)
      throw new AppError('io_error', `The session log ${file} could not be read; see Vigil's log for why.`, {
        path: file,
      });
    return loaded.state;
  }

  /** Reads a log's summary into an entry (its state is not kept). */
  async #read(file: SessionLogFile, isReported: boolean): Promise<void> {
    this.#unread.delete(file.id);
    const loaded = await loadSessionLog(file.file, isReported ? this.#options.report : () => undefined);
    if (loaded === undefined) return;
    const { state, isTorn } = loaded;
    this.#entries.set(state.id, unloadedEntry(state, file.file, isTorn));
  }
}
