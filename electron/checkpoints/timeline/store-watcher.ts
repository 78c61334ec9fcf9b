import { watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Disposer } from '../../lib';
import type { Logger } from '../../logging';
import type { CheckpointEntry } from '../checkpoint-types';
import type { CheckpointAnnouncer } from '../events/checkpoint-announcer';
import type { CutLog } from '../maintenance/cut-log';
import { dirHash, storeLayout } from '../../git-store';

/** What the store watcher reads from the engine and asks it to announce. */
export interface WatchedEngine {
  heads(): Promise<Map<string, string>>;
  directoryOf(dirhash: string): Promise<string | undefined>;
  list(
    dir: string,
    options: { readonly limit: number; readonly isResolved?: boolean },
  ): Promise<readonly CheckpointEntry[]>;
  readonly announcer: Pick<CheckpointAnnouncer, 'created' | 'cut'>;
  readonly cutLog: CutLog;
}

/** Options of the store watcher. */
export interface StoreWatcherOptions {
  /** `$VIGIL_HOME/checkpoints`. */
  readonly root: string;
  readonly engine: WatchedEngine;
  readonly logger: Logger;
  /** How often the store is also looked at, in case a file system event was missed (default 1 s). */
  readonly pollMs?: number;
}

/** The most new checkpoints of one timeline announced at once (a bigger jump makes the UI reload it). */
const maxAnnounced = 200;
/** Coalesces the events one checkpoint makes (objects, ref, reflog). */
const settleMs = 40;

/** What changes when another process checkpoints or cuts: the refs folder, the packed refs and the cut log. */
async function signature(root: string): Promise<string> {
  const { gitdir } = storeLayout(root);
  const parts = await Promise.all(
    [
      path.join(gitdir, 'refs', 'vigil'),
      path.join(gitdir, 'packed-refs'),
      path.join(gitdir, 'shallow'),
      path.join(root, 'cuts.jsonl'),
    ].map((file) =>
      stat(file).then(
        (info) => `${info.mtimeMs}:${info.size}:${info.ino}`,
        () => '-',
      ),
    ),
  );
  return parts.join('|');
}

/** The checkpoints of `dir` newer than `before`, oldest first (at most `maxAnnounced`). */
async function newerThan(
  engine: WatchedEngine,
  dirhash: string,
  dir: string,
  before: string | undefined,
): Promise<CheckpointEntry[]> {
  // The registry records the resolved folder its hash names: it is not resolved again (unless it does not hash to it).
  const isResolved = dirHash(dir) === dirhash;
  // Usually this core's own checkpoint (announced already) or one or two from elsewhere: a short look first.
  let entries = await engine.list(dir, { limit: 8, isResolved });
  if (entries.length === 8 && !entries.some((entry) => entry.id === before))
    entries = await engine.list(dir, { limit: maxAnnounced, isResolved });
  const index = entries.findIndex((entry) => entry.id === before);
  return (index < 0 ? entries : entries.slice(0, index)).slice().reverse();
}

/** Watches only the files another process's checkpoint or cut changes (not this process's lock file, nor objects). */
function watchStoreFiles(root: string, logger: Logger, onChange: () => void): FSWatcher[] {
  const watchers: FSWatcher[] = [];
  const { gitdir } = storeLayout(root);
  const watched: ReadonlyArray<readonly [string, ((name: string) => boolean) | undefined]> = [
    [path.join(gitdir, 'refs', 'vigil'), undefined],
    [gitdir, (name) => name === 'packed-refs' || name === 'shallow'],
    [root, (name) => name === 'cuts.jsonl'],
  ];
  for (const [folder, isRelevant] of watched) {
    try {
      const watcher = watch(folder, { persistent: false }, (_event, filename) => {
        if (isRelevant === undefined || filename === null || isRelevant(filename)) onChange();
      });
      watcher.on('error', () => watcher.close());
      watchers.push(watcher);
    } catch (error) {
      logger.warn('could not watch the checkpoint store; changes by other processes show within a second', {
        folder,
        error,
      });
    }
  }
  return watchers;
}

/**
 * Lets a resident core see what other Vigil processes did to the store (a `vigil checkpoint
 * --local`, a CLI run before the core started, a second core): new checkpoints are announced
 * exactly as the core's own (`checkpoints:created`, each once), and cuts recorded by others as
 * `checkpoints:cut`. File system events make it immediate; a cheap poll catches anything missed.
 * Resolves once the starting state is known; returns the disposer.
 */
export async function watchStore(options: StoreWatcherOptions): Promise<Disposer> {
  const { engine, root, logger } = options;
  const known = await engine.heads();
  let cutOffset = await engine.cutLog.size();
  let lastSignature = await signature(root);
  let scanning: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let isStopped = false;

  const announceTimeline = async (dirhash: string, head: string): Promise<void> => {
    const dir = await engine.directoryOf(dirhash);
    if (dir === undefined) return;
    for (const entry of await newerThan(engine, dirhash, dir, known.get(dirhash))) engine.announcer.created(entry);
    known.set(dirhash, head);
  };

  const scan = async (): Promise<void> => {
    lastSignature = await signature(root);
    const heads = await engine.heads();
    for (const [dirhash, head] of heads) if (known.get(dirhash) !== head) await announceTimeline(dirhash, head);
    for (const dirhash of known.keys()) if (!heads.has(dirhash)) known.delete(dirhash);
    const { records, next } = await engine.cutLog.readFrom(cutOffset);
    cutOffset = next;
    for (const record of records) engine.announcer.cut(record);
  };

  const requestScan = (): void => {
    if (isStopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      scanning = scanning
        .then(scan)
        .catch((error: unknown) =>
          logger.warn('could not read what another process changed in the checkpoint store', { error }),
        );
    }, settleMs);
  };

  const watchers = watchStoreFiles(root, logger, requestScan);
  const poll = setInterval(() => {
    void signature(root).then((current) => {
      if (current !== lastSignature) requestScan();
    });
  }, options.pollMs ?? 1_000);
  poll.unref();

  return async () => {
    isStopped = true;
    clearTimeout(timer);
    clearInterval(poll);
    for (const watcher of watchers) watcher.close();
    await scanning;
  };
}
