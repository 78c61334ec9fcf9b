import path from 'node:path';
import type { Logger } from '../../logging';
import { sweepStaleTemps } from '../../files';
import { watchDirectory, type WatchedTree } from '../watchers';
import { directoryExclusion } from './exclusion-rules';
import type { TrackedDirectory } from './tracked-directory';
import { relativeInside } from '../../lib';
import { verifyWatchedState, type VerificationOutcome, type VerificationRules } from './watch-verification';
import { FolderChangeFeed } from './folder-change-feed';

/** How long a checkpoint waits for the watcher to catch up before it walks the tree instead. */
const defaultCatchUpMs = 2_000;

/** What the watchers are told at construction. */
export interface DirectoryWatchersOptions {
  readonly logger: Logger;
  /** Told when files of a watched directory changed. */
  readonly onDirectoryChanged?: ((dir: string) => void) | undefined;
  /** The longest wait for a sync cookie (default 2 s). */
  readonly catchUpMs?: number | undefined;
}

/**
 * Keeps one watcher per checkpointed directory while the app or server runs, feeding the
 * directory's dirty set. The watcher is a hint, never the truth: a checkpoint first waits until it
 * has caught up (a sync cookie); a subtree it lost track of is reported so that it is walked
 * again; an overflow or a catch-up that fails makes the next snapshot walk the whole tree; a
 * watcher that fails for good (too many folders, the inotify limit) leaves that directory on full
 * walks; and `verify` compares what it was told with the disk.
 */
export class DirectoryWatchers {
  readonly #trees = new Map<string, WatchedTree>();
  #isDisposed = false;
  #verifier: NodeJS.Timeout | undefined;
  /** Every reported change, for caches beside the engine (the sandbox's scan of the roots). */
  readonly feed = new FolderChangeFeed();

  constructor(private readonly options: DirectoryWatchersOptions) {}

  /** Starts watching a directory; resolves once the watcher is set up (or gave up). */
  async watch(tracked: TrackedDirectory, ignoredFolders: readonly string[]): Promise<void> {
    if (this.#isDisposed || this.#trees.has(tracked.dirhash)) return;
    const { logger } = this.options;
    const ignoredRels = ignoredFolders.flatMap((folder) => {
      const inside = relativeInside(tracked.dir, folder);
      return inside === undefined || inside === '' ? [] : [inside.split(path.sep).join('/')];
    });
    // A sync cookie a killed core left behind (never stored, but it is the user's folder).
    await sweepStaleTemps(tracked.dir);
    try {
      const tree = await watchDirectory({
        root: tracked.dir,
        isIgnoredFolder: (name) => directoryExclusion(name) !== undefined,
        onListed: (entries) => {
          tracked.sizeHint = entries;
        },
        onChange: (rel) => {
          this.feed.changed(tracked, rel);
          if (ignoredRels.some((ignored) => rel.startsWith(`${ignored}/`))) return;
          tracked.dirty.add(rel);
          this.options.onDirectoryChanged?.(tracked.dir);
        },
        onWatchChanged: (rel, reason) => {
          if (reason === undefined) tracked.walkedPaths.delete(rel);
          else {
            tracked.walkedPaths.set(rel, reason);
            logger.warn('a folder could not be watched; checkpoints walk it instead', {
              dir: tracked.dir,
              rel,
              reason,
            });
          }
        },
        onOverflow: (reason, isFatal) => this.#lost(tracked, reason, isFatal),
      });
      if (this.isDisposed()) {
        tree();
        return;
      }
      this.#trees.set(tracked.dirhash, tree);
      tracked.isWatched = true;
      this.feed.started(tracked, tree);
    } catch (error) {
      tracked.walkReason = `the folder could not be watched (${error instanceof Error ? error.message : String(error)})`;
      logger.warn('could not watch a checkpointed directory; its snapshots walk the whole tree', {
        dir: tracked.dir,
        error,
      });
    }
  }

  /** The watcher may have missed changes: the next snapshot walks the whole tree (every one, when it stopped for good). */
  #lost(tracked: TrackedDirectory, reason: string, isFatal: boolean): void {
    tracked.needsFullScan = true;
    this.feed.lost(tracked);
    tracked.walkReason = reason;
    if (!isFatal) {
      this.options.logger.info('the watcher may have missed changes; the next checkpoint walks the tree', {
        dir: tracked.dir,
        reason,
      });
      return;
    }
    tracked.isWatched = false;
    this.#trees.delete(tracked.dirhash);
    this.feed.stopped(tracked);
    this.options.logger.warn('stopped watching a checkpointed directory; its snapshots walk the whole tree', {
      dir: tracked.dir,
      reason,
    });
  }

  /**
   * Before a snapshot answers from watched state: waits until the watcher has reported every change
   * made before this call (else the snapshot walks the whole tree), and queues the sub-folders no
   * watch covers for a walk.
   */
  async catchUp(tracked: TrackedDirectory): Promise<boolean> {
    const tree = this.#trees.get(tracked.dirhash);
    if (tree === undefined) return false;
    const outcome = await tree.catchUp(this.options.catchUpMs ?? defaultCatchUpMs);
    for (const rel of tracked.walkedPaths.keys()) tracked.dirty.add(rel);
    if (outcome.kind === 'caught-up') return true;
    tracked.needsFullScan = true;
    this.feed.lost(tracked);
    tracked.walkReason = outcome.reason;
    this.options.logger.warn('the watcher did not catch up; this checkpoint walks the whole tree', {
      dir: tracked.dir,
      reason: outcome.reason,
    });
    return false;
  }

  /** Compares a watched directory's state with the disk; a change the watcher missed is repaired and logged as a defect. */
  async verify(tracked: TrackedDirectory, rules: VerificationRules): Promise<VerificationOutcome> {
    const outcome = await verifyWatchedState(tracked, rules, () => this.catchUp(tracked));
    if (outcome.kind === 'verified' && outcome.missed.length > 0)
      this.options.logger.error('defect: the watcher missed changes (repaired: the next checkpoint looks at them)', {
        dir: tracked.dir,
        missed: outcome.missed.slice(0, 20),
        count: outcome.missed.length,
      });
    return outcome;
  }

  /**
   * Verifies every watched directory every `everyMs`, one after another (a walk of stats only,
   * beside the checkpoints; see verifyWatchedState). Stopped by `dispose`.
   */
  startVerifying(
    everyMs: number,
    targets: () => Iterable<TrackedDirectory>,
    rules: (tracked: TrackedDirectory) => Promise<VerificationRules>,
  ): void {
    if (everyMs <= 0 || this.#isDisposed) return;
    let isRunning = false;
    this.#verifier = setInterval(() => {
      if (isRunning) return;
      isRunning = true;
      void (async () => {
        for (const tracked of [...targets()]) if (!this.#isDisposed) await this.verify(tracked, await rules(tracked));
      })()
        .catch((error: unknown) => this.options.logger.warn('the verification walk failed', { error }))
        .finally(() => (isRunning = false));
    }, everyMs);
    this.#verifier.unref();
  }

  /** Whether `dispose` ran (a watcher that finished setting up afterwards is stopped at once). */
  isDisposed(): boolean {
    return this.#isDisposed;
  }

  /** Stops every watcher. */
  dispose(): Promise<void> {
    this.#isDisposed = true;
    clearInterval(this.#verifier);
    for (const stop of this.#trees.values()) stop();
    this.#trees.clear();
    this.feed.clear();
    return Promise.resolve();
  }
}
