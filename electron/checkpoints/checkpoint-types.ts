import type { z } from 'zod';
import type {
  attributionSchema,
  checkpointEntrySchema,
  checkpointSourceSchema,
  checkpointStatsSchema,
  skippedPathSchema,
} from '../../shared/contract/checkpoints-contract';
import type { CutRecord, DroppedCheckpointData } from '../../shared/contract/checkpoints-live-contract';

/**
 * Who caused a checkpoint, recorded as `Vigil-Session/Turn/Tool/Agent/Actor` trailers: `origin:
 * 'manual'` marks one taken by hand; `actor` says who took it when no session did.
 */
export type Attribution = Readonly<z.infer<typeof attributionSchema>>;

/** Which store a checkpoint comes from: Vigil's own, or a Hermes Agent store that Vigil reads and never writes. */
export type CheckpointSource = z.infer<typeof checkpointSourceSchema>;

/** Change counts of a checkpoint against its parent, computed once when it was taken. */
export type CheckpointStats = Readonly<z.infer<typeof checkpointStatsSchema>>;

/**
 * A path that a checkpoint did not store (relative to the directory, `/`-separated; a directory
 * ends with `/`), and why: `excluded` (the exclusion rules), `vcs` (a version-control folder at any
 * depth), `oversize` (over the size cap), `special` (a socket, FIFO or device), `unreadable` (retried
 * at the next checkpoint), `bad-name` (not valid UTF-8), `more` (more were skipped than a commit
 * message records; `path` holds the count).
 */
export type SkippedPath = Readonly<z.infer<typeof skippedPathSchema>>;

/** Why a path was not stored in a checkpoint. */
export type SkipReason = SkippedPath['reason'];

/**
 * One checkpoint of one directory, a commit on `refs/vigil/<dirhash>`: the contract's record
 * (`checkpointEntrySchema`), read-only, with `source` absent for Vigil's own store, plus where the
 * complete skip list is, which the contract does not carry.
 */
export type CheckpointEntry = Readonly<
  Omit<z.input<typeof checkpointEntrySchema>, 'attribution' | 'stats' | 'skipped'>
> & {
  readonly attribution: Attribution;
  readonly stats: CheckpointStats;
  /** Paths not stored (capped at the commit-message limit; the complete list is in `status`). */
  readonly skipped: readonly SkippedPath[];
  /** When `skipped` was cut short: the blob holding the complete list (see `decodeSkippedList`). */
  readonly skippedList?: string;
};

/** What kind of node a checkpoint is on the timeline. */
export type CheckpointKind = CheckpointEntry['kind'];

/** What `checkpoint()` did. */
export type CheckpointOutcome =
  | { readonly kind: 'created'; readonly checkpoint: CheckpointEntry }
  /** Nothing changed since the last checkpoint (`head`), so none was taken. */
  | { readonly kind: 'unchanged'; readonly head: string | undefined };

/** What a caller asks `checkpoint()` for. */
export interface CheckpointRequest {
  /** The commit subject, in the seed's words; see `checkpointReasons`. */
  readonly reason: string;
  readonly attribution?: Attribution;
  /** `pre-rollback` always creates a checkpoint (even when nothing changed) so the restore shows on the timeline. */
  readonly kind?: CheckpointKind;
  /** The full id of the checkpoint being restored (required with `kind: 'pre-rollback'`). */
  readonly restores?: string;
  /**
   * Files (absolute) the caller is about to change: they are re-checked on disk even when no
   * watcher event reported them, so the checkpoint holds their current content.
   */
  readonly paths?: readonly string[];
  /**
   * Files (absolute) stored whatever the exclusion rules say (the size cap still holds): a restore
   * point's files that the restore will overwrite, so that undoing it brings them back. Only
   * this snapshot holds them; the next one judges them by the rules again.
   */
  readonly forcePaths?: readonly string[];
  /**
   * A session's checkpoint before a call of its turn: taken even when nothing changed since the
   * newest checkpoint, unless that one is already this session turn's, so that every turn that
   * changes the directory has its own row (its changes are never shown under another turn's title).
   */
  readonly startsTurn?: boolean;
}

/** One supervised directory in the store. */
export interface CheckpointDirectory {
  readonly dir: string;
  readonly dirhash: string;
  /** The newest checkpoint; undefined when all were pruned or none was taken yet. */
  readonly head?: string;
  /** How many checkpoints its timeline holds. */
  readonly count: number;
  /** When it was last checkpointed (ISO 8601). */
  readonly lastTouch: string;
  /** Whether the directory still exists on disk. */
  readonly exists: boolean;
  /** Which stores hold its checkpoints; absent means Vigil's own only. */
  readonly sources?: readonly CheckpointSource[];
}

/** How `list()` pages a timeline. */
export interface ListOptions {
  /** At most this many entries (default 100). */
  readonly limit?: number;
  /** Skip this many of the newest entries first (default 0). */
  readonly offset?: number;
  /** Only this source's checkpoints (default: all the view holds; the engine alone holds only `vigil`). */
  readonly source?: CheckpointSource;
  /**
   * `dir` is already a resolved timeline directory (a checkpoint entry's `dir`, or a path the caller
   * resolved just now): its symlinks are not resolved again. Internal callers only; never taken from a request.
   */
  readonly isResolved?: boolean;
  /** Ids, times and kinds are all the caller needs: the pin and name files are not read, nor Hermes's change stats computed. */
  readonly isBare?: boolean;
}

/** How the engine finds a directory's timeline: `isResolved` as in `ListOptions`. */
export type TimelineLookup = Pick<ListOptions, 'isResolved'>;

/** One entry of a stored tree: the git store's, named here too because checkpoints hand trees out. */
export type { StoredTreeEntry } from '../git-store';

/** A directory's recently dropped checkpoints (d1 = newest), expired ones marked. */
export interface DroppedList {
  readonly dir: string;
  readonly keepDroppedDays: number;
  readonly entries: readonly DroppedCheckpointData[];
}

/** The retention policy: what `prune()` keeps. */
export interface RetentionPolicy {
  /** Checkpoints kept per directory (default 50); older ones are dropped. */
  readonly maxSnapshots: number;
  /** The whole store's size cap in bytes (default 500 MiB); the oldest checkpoints go first. */
  readonly maxTotalBytes: number;
  /** Days dropped checkpoints stay restorable in the recently dropped area (default 7). */
  readonly keepDroppedDays?: number;
}

/** What `prune()` did. */
export interface PruneReport {
  /** Checkpoints dropped from timelines. */
  readonly droppedCheckpoints: number;
  /** Unreachable objects deleted. */
  readonly droppedObjects: number;
  readonly bytesBefore: number;
  readonly bytesAfter: number;
}

/** How a resident core finds what changed in a directory: from its watcher (checked), or by walking it, and why. */
export interface WatchStatus {
  /** `watched`: checkpoints look at what the watcher reported (after it caught up); `walked`: each walks the whole tree. */
  readonly mode: 'watched' | 'walked';
  /** Why the tree is walked (for `walked`), or why the next checkpoint walks it once (for `watched`). */
  readonly reason?: string;
  /** Sub-folders every checkpoint walks because no watch covers them, with why. */
  readonly walkedPaths: readonly { readonly path: string; readonly reason: string }[];
  /** Changes the background verification found the watcher had not reported, all repaired, since the core started. */
  readonly defects: number;
  /** When the background verification last compared the watched state with the disk. */
  readonly verifiedAt?: string;
}

/** Sizes and counts of the store, and what was skipped per directory. */
/** The store rules of a directory in a few words, for `vigil checkpoints status`. */
export interface StoreRulesSummary {
  readonly kind: 'repository' | 'built-in';
  /** The repository's top folder, when the directory is inside one. */
  readonly repository?: string;
  /** How many files git tracks below the directory (all stored, whatever their names). */
  readonly tracked?: number;
  /** The repositories inside the directory judged by their own rules (submodules, and clones its walk found). */
  readonly nested?: { at: string; kind: 'submodule' | 'clone'; tracked: number }[];
  /** Problems reading the rules, each naming its file (the built-in rules cover what they would). */
  readonly warnings: string[];
}

export interface StoreStatus {
  readonly gitdir: string;
  readonly bytes: number;
  readonly looseObjects: number;
  readonly packs: number;
  readonly retention: RetentionPolicy;
  readonly maxFileBytes: number;
  readonly directories: readonly (CheckpointDirectory & {
    /** Everything the latest checkpoint left out, and why (the full list, not capped). */
    readonly skipped: readonly SkippedPath[];
    /** How many of its checkpoints are pinned. */
    readonly pinned?: number;
    /** What its snapshots store: a repository's tracked files and ignore rules, or Vigil's built-in names; and any problem reading them. */
    readonly rules?: StoreRulesSummary;
    /** Whether checkpoints of it are answered from a watcher or by a walk, and why. */
    readonly watch?: WatchStatus;
    /** How many checkpoints its next checkpoint would cut under the retention in force. */
    readonly wouldDrop?: number;
    /** How many of its checkpoints wait in the recently dropped area, restorable. */
    readonly dropped?: number;
  })[];
  /** The latest cuts, newest first (of `dir` only, when the status is of one directory). */
  readonly cuts?: readonly CutRecord[];
}
