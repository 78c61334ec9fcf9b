import path from 'node:path';
import type {
  DriftReport,
  MemoryChange,
  MemoryTarget,
  MemoryUsage,
  MemoryVersion,
} from '../../shared/contract/memory-contract';
import { diffEntries } from './entry-diff';
import { findAppendedText } from './memory-appended';
import { flaggedEntries } from './flagged-entries';
import type { ResolvedMemoryDirectory } from './memory-config';
import { badInputDrift, detectDrift, noDrift } from './memory-drift';
import { type FileIdentity, isSameIdentity } from '../files';
import { runOutsideFileLocks } from '../locks';
import type { MemoryFileSnapshot } from './memory-file';
import { memoryFileNames, parseEntries, usageOf } from './memory-format';
import { writtenByOtherVigil, type MemoryWriteRecord } from './memory-write-record';

/** A snapshot understood: its entries, drift status and usage. */
export interface ParsedSnapshot {
  readonly version: MemoryVersion;
  readonly drift: DriftReport;
  readonly usage: MemoryUsage;
}

/**
 * Parses a snapshot against a limit with Hermes's rule; bytes that are not UTF-8 have no entries,
 * and those, a NUL byte or more than 1 MiB are drift of their own (never rewritten by a call).
 */
export function parseSnapshot(snapshot: MemoryFileSnapshot, limit: number): ParsedSnapshot {
  const isUtf8 = snapshot.invalidUtf8At === -1;
  const entries = isUtf8 ? parseEntries(snapshot.text) : [];
  const bad = badInputDrift(snapshot.bytes, snapshot.invalidUtf8At);
  const rule = isUtf8 ? detectDrift(snapshot.text, limit) : noDrift;
  const drift = bad === undefined ? rule : { isDrifted: true, reasons: [...bad.reasons, ...rule.reasons] };
  return {
    version: { exists: snapshot.exists, sha256: snapshot.sha256, entries },
    drift,
    usage: usageOf(entries, limit),
  };
}

/** Where the changes of a file go. */
export type MemoryChangeSink = (change: MemoryChange) => void;

/** How a fresh read came about. */
export interface ObserveOptions {
  /**
   * `vigil`: this service just wrote it · `restore`: this service's restore guard saw a restore
   * write it · `detect`: a watcher or a mutation read it; the write record decides.
   */
  readonly source: 'vigil' | 'restore' | 'detect';
  readonly record?: MemoryWriteRecord | undefined;
  /** File-system notifications behind this read (0 when a mutation read it). */
  readonly notifications: number;
}

/**
 * The last known version of one memory file, and the one queue through which everything that
 * reads or writes it in this process passes (watcher reads and mutations), so a stale read can
 * never be compared against a newer version. Each new version is reported once, as Vigil's or as
 * external, with the diff from the previous reported version: versions that were overwritten
 * before anyone read them are superseded, never silently skipped over.
 */
export class MemoryFileState {
  readonly file: string;
  #known: MemoryVersion | undefined;
  #lastExternal: MemoryChange | null = null;
  /** The on-disk version last read; `unknown` after Vigil wrote (the writer does not report it). */
  #readIdentity: { readonly identity: FileIdentity | undefined } | 'unknown' = 'unknown';
  #tail: Promise<unknown> = Promise.resolve();
  /** Changes observed by the running task, reported when it ends (after it released its locks). */
  readonly #outbox: MemoryChange[] = [];

  constructor(
    readonly directory: ResolvedMemoryDirectory,
    readonly target: MemoryTarget,
    readonly sink: MemoryChangeSink,
    /** The service's writer id in write records (see `RecordedWrite.writer`). */
    readonly writer: string,
  ) {
    this.file = path.join(directory.path, memoryFileNames[target]);
  }

  /** The character limit of this file. */
  get limit(): number {
    return this.directory.limits[this.target];
  }

  /** The newest external change reported since this process started. */
  get lastExternalChange(): MemoryChange | null {
    return this.#lastExternal;
  }

  /** Whether the file on disk is still the version last read (then a re-check need not read it). */
  isStill(identity: FileIdentity | undefined): boolean {
    return this.#readIdentity !== 'unknown' && isSameIdentity(this.#readIdentity.identity, identity);
  }

  /**
   * Runs `task` after every earlier task on this file (serialized; a failure does not block the
   * next). The changes it observed go to the sink when it ends, outside any memory lock: a
   * listener that starts a mutation then takes the locks itself, after this task released them.
   */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task, task).finally(() => this.#flush());
    this.#tail = result.catch(() => undefined);
    return result;
  }

  #flush(): void {
    const changes = this.#outbox.splice(0);
    if (changes.length === 0) return;
    runOutsideFileLocks(() => {
      for (const change of changes) this.sink(change);
    });
  }

  /**
   * Reports the snapshot if it differs from the last known version and returns the change (the
   * sink gets it when the running task ends); the first snapshot of a file is its baseline.
   */
  observe(snapshot: MemoryFileSnapshot, options: ObserveOptions): MemoryChange | undefined {
    const parsed = parseSnapshot(snapshot, this.limit);
    this.#readIdentity = options.source === 'detect' ? { identity: snapshot.identity } : 'unknown';
    const previous = this.#known;
    this.#known = parsed.version;
    // The first read of a file no one has read before is the baseline, not a change.
    if (previous === undefined) return undefined;
    if (previous.exists === parsed.version.exists && previous.sha256 === parsed.version.sha256) return undefined;
    // Another Vigil writer's version is Vigil's; one this service wrote itself was observed when it
    // wrote it, so finding it on disk again means someone else put it back.
    const byOther =
      options.source === 'detect' ? writtenByOtherVigil(options.record, snapshot.sha256, this.writer) : undefined;
    const isVigil = options.source !== 'detect' || byOther !== undefined;
    const isRestore = options.source === 'restore' || byOther?.isRestore === true;
    const change: { -readonly [Key in keyof MemoryChange]: MemoryChange[Key] } = {
      dir: this.directory.path,
      target: this.target,
      file: this.file,
      source: isVigil ? 'vigil' : 'external',
      at: new Date().toISOString(),
      previous,
      current: parsed.version,
      diff: diffEntries(previous.entries, parsed.version.entries),
      drift: parsed.drift,
      usage: parsed.usage,
      notifications: options.notifications,
      ...(isRestore ? { isRestore: true } : {}),
    };
    const appended = isVigil
      ? null
      : findAppendedText(parsed.version.entries, previous.entries, new Set(options.record?.entries ?? []), this.limit);
    if (appended !== null) change.appended = appended;
    if (!isVigil) {
      const flagged = flaggedEntries(change.diff.added);
      if (flagged.length > 0) change.flagged = flagged;
      this.#lastExternal = change;
    }
    this.#outbox.push(change);
    return change;
  }
}
