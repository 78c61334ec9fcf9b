import type { Logger } from '../../logging';
import { saveStatCache } from './stat-cache';
import { statCacheFile, type StoreLayout } from '../../git-store';
import type { TrackedDirectory } from './tracked-directory';

/** What the saver needs from the service. */
export interface StatCacheSaverOptions {
  readonly layout: StoreLayout;
  readonly logger: Logger;
  /** Save right after each snapshot (one-shot processes) instead of once snapshots pause (the app). */
  readonly isOneShot: boolean;
  /** How long snapshots must pause before a save (default 15 s). */
  readonly quietMs?: number | undefined;
  /** Runs work under the store lock: a snapshot must not change a state while it is written out. */
  readonly underLock: (work: () => Promise<void>) => Promise<void>;
  readonly directories: () => Iterable<TrackedDirectory>;
}

/** A pause in snapshots this long triggers a save in the app. */
const defaultQuietMs = 15_000;
/** ...and a save happens at least this often while snapshots keep coming. */
const maxWaitMs = 120_000;

/**
 * Writes the directories' stat caches to disk. The cache only spares a full walk after a restart,
 * so in the app it is saved once snapshots pause rather than after each one (a 200,000-file cache
 * takes a moment to serialize); one-shot processes save before they exit. In the app the save also
 * compacts the state: its folders then read the columns just written instead of holding an object
 * per file (see `DirState.compactFolder`).
 */
export class StatCacheSaver {
  #timer: NodeJS.Timeout | undefined;
  #pendingSince: number | undefined;

  constructor(private readonly options: StatCacheSaverOptions) {}

  /** Called after each snapshot. */
  async afterSnapshot(tracked: TrackedDirectory): Promise<void> {
    if (!tracked.isCacheStale) return;
    if (this.options.isOneShot) {
      await this.#saveUnderLock();
      return;
    }
    const now = Date.now();
    this.#pendingSince ??= now;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#pendingSince = undefined;
        void this.#saveUnderLock();
      },
      Math.max(0, Math.min(this.options.quietMs ?? defaultQuietMs, this.#pendingSince + maxWaitMs - now)),
    );
    this.#timer.unref();
  }

  /** Saves what is pending now (the service is closing). */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if ([...this.options.directories()].some((tracked) => tracked.isCacheStale)) await this.#saveUnderLock();
  }

  async #saveUnderLock(): Promise<void> {
    // The checkpoint is taken either way; a cache that cannot be saved only makes the next walk slower.
    await this.options
      .underLock(() => this.#save())
      .catch((error: unknown) => this.options.logger.warn('could not save a stat cache', { error }));
  }

  async #save(): Promise<void> {
    for (const tracked of this.options.directories()) {
      const state = tracked.state;
      if (state === undefined || !tracked.isCacheStale) continue;
      tracked.isCacheStale = false;
      // A long-lived process keeps the state compact (the saved columns); a one-shot one exits anyway.
      // The folders of racy records stay objects: the next snapshot smudges a record only if it is that very object.
      const keepFolders = new Set(
        [...tracked.racy.keys()].map((rel) => rel.slice(0, Math.max(0, rel.lastIndexOf('/')))),
      );
      await saveStatCache(statCacheFile(this.options.layout, tracked.dirhash), tracked.dir, state, {
        compact: !this.options.isOneShot,
        keepFolders,
      });
    }
  }
}
