import path from 'node:path';
import type { Logger } from '../../logging/logger';
import type { Disposer } from '../../lib/disposable';
import { watchDirectory } from '../../watchers/directory-watcher';
import { directoryExclusion } from './exclusion-rules';
import type { TrackedDirectory } from './tracked-directory';
import { relativeInside } from '../../lib/path-rules';

/**
 * Keeps one watcher per checkpointed directory while the app or server runs, feeding the
 * directory's dirty set. A watcher that overflows makes the next snapshot walk the whole tree; one
 * that fails for good (too many folders, the inotify limit) leaves that directory on full walks.
 */
export class DirectoryWatchers {
  readonly #stops = new Map<string, Disposer<void>>();
  #isDisposed = false;

  constructor(
    private readonly logger: Logger,
    /** Told when files of a watched directory changed. */
    private readonly onDirectoryChanged?: (dir: string) => void,
  ) {}

  /** Starts watching a directory; resolves once the watcher is set up (or gave up). */
  async watch(tracked: TrackedDirectory, ignoredFolders: readonly string[]): Promise<void> {
    if (this.#isDisposed || this.#stops.has(tracked.dirhash)) return;
    const ignoredRels = ignoredFolders.flatMap((folder) => {
      const inside = relativeInside(tracked.dir, folder);
      return inside === undefined || inside === '' ? [] : [inside.split(path.sep).join('/')];
    });
    try {
      const stop = await watchDirectory({
        root: tracked.dir,
        isIgnoredFolder: (name) => directoryExclusion(name) !== undefined,
        onListed: (entries) => {
          tracked.sizeHint = entries;
        },
        onChange: (rel) => {
          if (ignoredRels.some((ignored) => rel.startsWith(`${ignored}/`))) return;
          tracked.dirty.add(rel);
          this.onDirectoryChanged?.(tracked.dir);
        },
        onOverflow: (reason, isFatal) => {
          tracked.needsFullScan = true;
          if (!isFatal) return;
          tracked.isWatched = false;
          this.#stops.delete(tracked.dirhash);
          this.logger.warn('stopped watching a checkpointed directory; its snapshots walk the whole tree', {
            dir: tracked.dir,
            reason,
          });
        },
      });
      if (this.isDisposed()) {
        stop();
        return;
      }
      this.#stops.set(tracked.dirhash, stop);
      tracked.isWatched = true;
    } catch (error) {
      this.logger.warn('could not watch a checkpointed directory; its snapshots walk the whole tree', {
        dir: tracked.dir,
        error,
      });
    }
  }

  /** Whether `dispose` ran (a watcher that finished setting up afterwards is stopped at once). */
  isDisposed(): boolean {
    return this.#isDisposed;
  }

  /** Stops every watcher. */
  dispose(): Promise<void> {
    this.#isDisposed = true;
    for (const stop of this.#stops.values()) stop();
    this.#stops.clear();
    return Promise.resolve();
  }
}
