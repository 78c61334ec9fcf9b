import type { FileIdentity } from './file-identity';

/** Options of one atomic write. */
export interface AtomicWriteOptions {
  /** Explicit permission bits; otherwise an existing file keeps its mode and a new file gets the umask default. */
  readonly mode?: number;
  /**
   * Refuse (`conflict`) unless the target is already the canonical path, with no symlink anywhere
   * in it when the write starts. (The agent tools go further: they write through the folder their
   * prepare anchored, `writeAnchoredFile`, so nothing swapped in later redirects them either.)
   */
  readonly requireCanonical?: boolean;
  /** Refuse (`conflict`) unless the file is still this version (undefined identity: still absent) right before the rename. */
  readonly ifUnchanged?: { readonly identity: FileIdentity | undefined };
  /**
   * Hard-link whatever is at the target to this path (beside it) right before the rename, after
   * the `ifUnchanged` check: a version another program renamed into place between the check and
   * the rename then survives, for the caller to compare with what it read. The link is the
   * caller's: it removes it, whether the write succeeded or failed.
   */
  readonly keepReplacedAt?: string;
  /** Runs between the `ifUnchanged` check and the rename: a seam for tests standing in for another program at that moment. */
  readonly afterCheck?: () => Promise<void>;
}

/** What an atomic write did. */
export interface AtomicWriteResult {
  /** The file actually written (a symlink's resolved target). */
  readonly path: string;
  readonly bytesWritten: number;
  /** The file did not exist before. */
  readonly created: boolean;
  /** The directories actually created, outermost first. */
  readonly dirsCreated: readonly string[];
}

/** A finished write whose directory entries may still need an fsync (the batch form defers them). */
export interface StagedWrite {
  readonly result: AtomicWriteResult;
  /** Directories whose entries changed: the file's own, and the parent of each created directory. */
  readonly directoriesToSync: readonly string[];
}
