import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { Disposer } from '../../lib';
import { isVigilTempFile } from '../../files';
import { InotifyTree } from './inotify-tree';
import { SyncCookies, type CatchUp } from './sync-cookie';

export type { CatchUp } from './sync-cookie';

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
  /**
   * A sub-folder could not be watched (`reason`, such as permission denied): its subtree must be
   * walked at every checkpoint; or (`undefined`) it is watched again.
   */
  readonly onWatchChanged?: (relativePath: string, reason: string | undefined) => void;
}

/** A running watcher: stop it, or wait until it has reported every change made before the call. */
export interface WatchedTree {
  (): void;
  /**
   * Resolves once every event of a change made before the call has been reported, and every watch
   * those events asked for stands (its subtree reported again): a sync cookie, waited for at most
   * `timeoutMs`. A `failed` answer means the listener cannot trust what it was told.
   */
  catchUp(timeoutMs: number): Promise<CatchUp>;
}

/** Whether this platform's `fs.watch` can watch a whole tree natively (FSEvents, ReadDirectoryChangesW). */
const hasNativeRecursive = process.platform === 'darwin' || process.platform === 'win32';

/** One native recursive watch of the whole tree (macOS, Windows). */
function watchTreeNatively(
  options: DirectoryWatcherOptions,
  cookies: SyncCookies,
  fail: (reason: string) => void,
): FSWatcher {
  const { root, onChange, onOverflow } = options;
  const watcher = watch(root, { recursive: true, persistent: false }, (_event, filename) => {
    if (filename === null) onOverflow('the file system dropped events', false);
    else if (cookies.take(filename) || isVigilTempFile(filename)) return;
    else onChange(filename.split(path.sep).join('/'));
  });
  watcher.on('error', (error) => fail(`the watcher failed: ${error.message}`));
  return watcher;
}

/**
 * Watches a directory tree and reports changed paths, so that a snapshot looks only at those. On
 * macOS and Windows one native recursive watch covers the tree; on Linux (inotify) each folder is
 * watched on its own (see InotifyTree). Events are reported as they arrive, with no debounce: the
 * listener only collects paths. Resolves once every watch is set up.
 */
export async function watchDirectory(options: DirectoryWatcherOptions): Promise<WatchedTree> {
  const cookies = new SyncCookies(options.root);
  let isStopped = false;
  if (hasNativeRecursive) {
    const fail = (reason: string): void => {
      if (isStopped) return;
      isStopped = true;
      watcher.close();
      options.onOverflow(reason, true);
    };
    const watcher = watchTreeNatively(options, cookies, fail);
    const stop = (): void => {
      isStopped = true;
      watcher.close();
    };
    return Object.assign(stop, {
      catchUp: (timeoutMs: number) => (isStopped ? Promise.resolve(stoppedCatchUp) : cookies.sync(timeoutMs)),
    });
  }
  const tree = new InotifyTree(options, cookies);
  await tree.start();
  options.onListed?.(tree.listed);
  const stop: Disposer<void> = () => {
    isStopped = true;
    tree.stop();
  };
  return Object.assign(stop, {
    catchUp: async (timeoutMs: number): Promise<CatchUp> => {
      if (isStopped || tree.isStopped) return stoppedCatchUp;
      const outcome = await cookies.sync(timeoutMs);
      await tree.settled();
      return outcome;
    },
  });
}

const stoppedCatchUp: CatchUp = { kind: 'failed', reason: 'the watcher was stopped' };
