import { watch, type FSWatcher } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Disposer } from '../lib/disposable';
import { isVigilTempFile } from '../files/vigil-temp-name';

/** What a directory watcher reports to. */
export interface DirectoryWatcherOptions {
  /** The directory to watch (absolute, resolved). */
  readonly root: string;
  /** A path (relative, `/`-separated) was created, changed, renamed or deleted. */
  readonly onChange: (relativePath: string) => void;
  /**
   * Changes may have been missed (the OS dropped events, a folder could not be watched): the
   * listener must look at everything again. `isFatal` means the watcher stopped for good.
   */
  readonly onOverflow: (reason: string, isFatal: boolean) => void;
  /** Folders not to watch inside (by name, such as `node_modules`); their own creation is still reported. */
  readonly isIgnoredFolder?: (name: string) => boolean;
  /** On Linux every folder needs its own watch; beyond this many the watcher gives up (default 20,000). */
  readonly maxFolders?: number;
  /** Told how many entries the setup walk saw (Linux only), a hint of the tree's size. */
  readonly onListed?: (entries: number) => void;
}

/** Whether this platform's `fs.watch` can watch a whole tree natively (FSEvents, ReadDirectoryChangesW). */
const hasNativeRecursive = process.platform === 'darwin' || process.platform === 'win32';

/** One native recursive watch of the whole tree (macOS, Windows). */
function watchTreeNatively(options: DirectoryWatcherOptions, fail: (reason: string) => void): FSWatcher {
  const { root, onChange, onOverflow } = options;
  const watcher = watch(root, { recursive: true, persistent: false }, (_event, filename) => {
    if (filename === null) onOverflow('the file system dropped events', false);
    else onChange(filename.split(path.sep).join('/'));
  });
  watcher.on('error', (error) => fail(`the watcher failed: ${error.message}`));
  return watcher;
}

/** Why a folder could not be watched, or undefined when it is simply gone (or no folder). */
function watchFailure(error: unknown, absolute: string): string | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
  return code === 'ENOSPC'
    ? 'the system limit of watched folders was reached (fs.inotify.max_user_watches)'
    : `could not watch ${absolute}: ${code ?? String(error)}`;
}

/**
 * Watches a directory tree and reports changed paths, so that a snapshot looks only at those. On
 * macOS and Windows one native recursive watch covers the tree; on Linux (inotify) each folder is
 * watched on its own and new folders are picked up as they appear. Events are reported as they
 * arrive, with no debounce: the listener only collects paths. Resolves once every watch is set up.
 */
export async function watchDirectory(options: DirectoryWatcherOptions): Promise<Disposer<void>> {
  const { root, onChange, onOverflow } = options;
  const watchers = new Map<string, FSWatcher>();
  let isStopped = false;
  const stop = (): void => {
    isStopped = true;
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
  const fail = (reason: string): void => {
    if (isStopped) return;
    stop();
    onOverflow(reason, true);
  };

  if (hasNativeRecursive) {
    watchers.set('', watchTreeNatively(options, fail));
    return stop;
  }

  const maxFolders = options.maxFolders ?? 20_000;
  const isIgnored = options.isIgnoredFolder ?? (() => false);

  /** Watches one folder and (recursively) the folders inside it. */
  const watchFolder = async (rel: string): Promise<void> => {
    if (isStopped || watchers.has(rel)) return;
    if (watchers.size >= maxFolders) {
      fail(`more than ${maxFolders} folders to watch`);
      return;
    }
    const absolute = rel === '' ? root : path.join(root, rel);
    let watcher: FSWatcher;
    try {
      watcher = watch(absolute, { persistent: false }, (event, filename) => {
        if (filename === null) {
          onOverflow('the file system dropped events', false);
          return;
        }
        // Vigil's own temp files come and go with every atomic write: nothing stores them, and they are never folders.
        if (isVigilTempFile(filename)) return;
        const child = rel === '' ? filename : `${rel}/${filename}`;
        onChange(child);
        // A folder that appeared (created or moved in) needs watches of its own.
        if (event === 'rename' && !isIgnored(filename)) void watchNewFolder(child);
      });
    } catch (error) {
      const reason = watchFailure(error, absolute);
      if (reason !== undefined) fail(reason);
      return;
    }
    watcher.on('error', () => {
      // The folder itself went away: forget its watch; its parent reports the deletion.
      watcher.close();
      if (watchers.get(rel) === watcher) watchers.delete(rel);
      if (rel === '') onOverflow('the watched directory itself went away', false);
      else onChange(rel);
    });
    watchers.set(rel, watcher);
    const entries = await readdir(absolute, { withFileTypes: true }).catch(() => []);
    listed += entries.length;
    // A folder that appeared after its parent was listed: its files may predate the watch.
    for (const entry of entries) {
      if (entry.isDirectory() && !isIgnored(entry.name))
        await watchFolder(rel === '' ? entry.name : `${rel}/${entry.name}`);
    }
  };

  /** Watches a path reported at run time if it is a folder (files need no watch of their own). */
  const watchNewFolder = async (rel: string): Promise<void> => {
    const info = await lstat(path.join(root, rel)).catch(() => undefined);
    if (info?.isDirectory() === true) await watchFolder(rel).catch(() => undefined);
  };

  let listed = 0;
  await watchFolder('');
  options.onListed?.(listed);
  return stop;
}
