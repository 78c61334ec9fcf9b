import { watch, type FSWatcher } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isVigilTempFile } from '../../files';
import type { SyncCookies } from './sync-cookie';
import type { DirectoryWatcherOptions } from './directory-watcher';

/** Why a folder could not be watched, or undefined when it is simply gone (or no folder). */
function watchFailure(error: unknown, absolute: string): { reason: string; isFatal: boolean } | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
  if (code === 'ENOSPC')
    return { reason: 'the system limit of watched folders was reached (fs.inotify.max_user_watches)', isFatal: true };
  return { reason: `could not watch ${absolute} (${code ?? String(error)})`, isFatal: false };
}

/** The folder a relative path is in ('' for the top). */
function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? '' : rel.slice(0, slash);
}

/** The kernel's queue length (`fs.inotify.max_queued_events`): past it, events are dropped. */
async function maxQueuedEvents(): Promise<number> {
  const text = await readFile('/proc/sys/fs/inotify/max_queued_events', 'utf8').catch(() => '16384');
  const value = Number.parseInt(text, 10);
  return Number.isFinite(value) && value > 0 ? value : 16_384;
}

/**
 * The Linux watcher: inotify watches one folder each, so each folder gets its own `fs.watch` and
 * new folders are picked up as they appear. A watch follows its folder's inode, not its path: a
 * folder removed (or moved away) and created again under the same name is a new inode its old
 * watch never sees. So every create, delete or move of an entry drops the watches at that path and
 * below and watches whatever is there now afresh, and once the new watches stand the path is
 * reported again, so that the listener re-walks that subtree (files written before the watch
 * existed have no event of their own). Node's inotify layer drops the kernel's overflow notice, so
 * a burst as long as the kernel's queue is taken for an overflow.
 */
export class InotifyTree {
  readonly #watchers = new Map<string, FSWatcher>();
  /** The watched sub-folders of each watched folder, so that a subtree's watches are closed without looking at all. */
  readonly #children = new Map<string, Set<string>>();
  /** Setups under way (a folder's watch, then its sub-folders'); a catch-up waits for them. */
  readonly #settingUp = new Set<Promise<void>>();
  /** Sub-folders that could not be watched, with why: walked at every checkpoint instead. */
  readonly #unwatched = new Map<string, string>();
  #isStopped = false;
  #burst = 0;
  #maxBurst = 16_384;
  listed = 0;

  constructor(
    private readonly options: DirectoryWatcherOptions,
    private readonly cookies: SyncCookies,
  ) {}

  /** Watches the whole tree; resolves once every watch is set up. */
  async start(): Promise<void> {
    this.#maxBurst = await maxQueuedEvents();
    await this.#watchFolder('');
  }

  /** Resolves once every setup started so far (and any they started) is done. */
  async settled(): Promise<void> {
    while (this.#settingUp.size > 0) await Promise.allSettled([...this.#settingUp]);
  }

  /** Whether the watcher stopped (asked to, or given up for good). */
  get isStopped(): boolean {
    return this.#isStopped;
  }

  /** Stops every watch. */
  stop(): void {
    this.#isStopped = true;
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
    this.#children.clear();
  }

  #fail(reason: string): void {
    if (this.#isStopped) return;
    this.stop();
    this.options.onOverflow(reason, true);
  }

  /** Counts events of one turn of the event loop: a burst the size of the kernel's queue may have lost some. */
  #countEvent(): void {
    if (this.#burst === 0) setImmediate(() => (this.#burst = 0));
    this.#burst += 1;
    if (this.#burst === this.#maxBurst) this.options.onOverflow('the inotify event queue may have overflowed', false);
  }

  #onEvent(rel: string, event: string, filename: string | null): void {
    this.#countEvent();
    if (filename === null) {
      this.options.onOverflow('the file system dropped events', false);
      return;
    }
    if (rel === '' && this.cookies.take(filename)) return;
    // Vigil's own temp files come and go with every atomic write: nothing stores them, and they are never folders.
    if (isVigilTempFile(filename)) return;
    const child = rel === '' ? filename : `${rel}/${filename}`;
    this.options.onChange(child);
    // An entry created, deleted or moved (or the folder's own removal, named after itself), or a
    // folder that could not be watched whose permissions changed: what is there now is watched afresh.
    if (event === 'rename' || this.#unwatched.has(child)) this.#track(this.#rewatch(child));
  }

  #track(setup: Promise<void>): void {
    this.#settingUp.add(setup);
    void setup.finally(() => this.#settingUp.delete(setup));
  }

  /** Drops the watches at `rel` and below (they may watch a folder that is gone) and watches what is there now. */
  async #rewatch(rel: string): Promise<void> {
    this.#close(rel);
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    const info = await lstat(path.join(this.options.root, rel)).catch(() => undefined);
    if (info?.isDirectory() !== true || this.options.isIgnoredFolder?.(name) === true) return;
    await this.#watchFolder(rel).catch(() => undefined);
    // Its files may predate the watch: the listener walks the subtree again.
    if (!this.#isStopped) this.options.onChange(rel);
  }

  /** Closes the watches of `rel` and every folder below it (found through `#children`, not a scan of every watch). */
  #close(rel: string): void {
    this.#watchers.get(rel)?.close();
    this.#watchers.delete(rel);
    const children = this.#children.get(rel);
    this.#children.delete(rel);
    for (const child of children ?? []) this.#close(child);
    if (rel !== '') this.#children.get(parentOf(rel))?.delete(rel);
  }

  /** Watches one folder and (recursively) the folders inside it. */
  async #watchFolder(rel: string): Promise<void> {
    if (this.#isStopped || this.#watchers.has(rel)) return;
    const maxFolders = this.options.maxFolders ?? 20_000;
    if (this.#watchers.size >= maxFolders) {
      this.#fail(`more than ${maxFolders} folders to watch`);
      return;
    }
    const absolute = rel === '' ? this.options.root : path.join(this.options.root, rel);
    let watcher: FSWatcher;
    try {
      watcher = watch(absolute, { persistent: false }, (event, filename) => this.#onEvent(rel, event, filename));
    } catch (error) {
      this.#noteFailure(rel, watchFailure(error, absolute));
      return;
    }
    watcher.on('error', (error) => this.#onWatchError(rel, watcher, error));
    this.#watchers.set(rel, watcher);
    if (rel !== '') {
      const siblings = this.#children.get(parentOf(rel)) ?? new Set<string>();
      siblings.add(rel);
      this.#children.set(parentOf(rel), siblings);
    }
    if (this.#unwatched.delete(rel)) this.options.onWatchChanged?.(rel, undefined);
    const entries = await readdir(absolute, { withFileTypes: true }).catch(() => []);
    this.listed += entries.length;
    const isIgnored = this.options.isIgnoredFolder ?? (() => false);
    for (const entry of entries) {
      if (entry.isDirectory() && !isIgnored(entry.name))
        await this.#watchFolder(rel === '' ? entry.name : `${rel}/${entry.name}`);
    }
  }

  #noteFailure(rel: string, failure: { reason: string; isFatal: boolean } | undefined): void {
    if (failure === undefined) return;
    if (failure.isFatal || rel === '') {
      this.#fail(failure.reason);
      return;
    }
    // One folder that cannot be watched (permission denied): that subtree is walked, the rest stays watched.
    this.#unwatched.set(rel, failure.reason);
    this.options.onWatchChanged?.(rel, failure.reason);
  }

  /** A watch failed: its subtree is walked again and watched afresh (or, the root's, the whole tree walked). */
  #onWatchError(rel: string, watcher: FSWatcher, error: Error): void {
    watcher.close();
    if (this.#watchers.get(rel) === watcher) this.#watchers.delete(rel);
    if (rel === '') {
      this.options.onOverflow(`the watch of the directory itself failed: ${error.message}`, false);
      this.#track(this.#watchFolder(''));
      return;
    }
    this.options.onChange(rel);
    this.#track(this.#rewatch(rel));
  }
}
