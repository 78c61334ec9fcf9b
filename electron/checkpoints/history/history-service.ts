import type { CheckpointEntry } from '../checkpoint-types';
import {
  absoluteIn,
  createPathScope,
  knownHashesLoader,
  overlayReader,
  readLiveContent,
  readLiveTree,
  type KnownHashes,
  type LiveTree,
  type LiveTreeRules,
  type TreeReader,
} from '../compare';
import { allCheckpoints, fileHistory, type FileVersionChange, type HistoryEngine, type LiveSide } from './file-history';
import { historyTrees } from './history-trees';
import { searchText, type LiveTreeSide, type TextChange } from './text-search';

/** Looks up the first user message of a session's turn. */
export type TurnMessageOf = (sessionId: string, turn: number) => Promise<string | undefined>;

/** A checkpoint of a history or a search answer, with the message of the turn it was taken for. */
export interface WithTurnMessage {
  readonly turnMessage?: string;
}

/** A file's history. */
export interface FileLog {
  readonly dir: string;
  readonly path: string;
  /** How many checkpoints were looked at. */
  readonly checkpoints: number;
  readonly entries: readonly (FileVersionChange & WithTurnMessage)[];
}

/** A search's answer. */
export interface TextSearch {
  readonly dir: string;
  readonly text: string;
  readonly checkpoints: number;
  readonly hits: readonly (TextChange & WithTurnMessage)[];
  readonly isTruncated: boolean;
}

/** File history and search over the merged timelines. */
export interface HistoryService {
  /** Every checkpoint after which `relativePath` changed, newest first (the newest compared with the directory now unless `includeLive` is false). */
  fileLog(dir: string, relativePath: string, options?: { readonly includeLive?: boolean }): Promise<FileLog>;
  /** Every checkpoint after which the count of `text` in a file changed, newest first, at most `limit`. */
  search(
    dir: string,
    text: string,
    options?: { readonly includeLive?: boolean; readonly limit?: number },
  ): Promise<TextSearch>;
}

/** What the history service is built from. */
export interface HistoryServiceOptions {
  readonly engine: HistoryEngine;
  /** `$VIGIL_HOME/checkpoints`: the stat caches that spare re-reading unchanged live files. */
  readonly root: string;
  readonly rules: LiveTreeRules;
  readonly turnMessageOf?: TurnMessageOf;
}

/** Adds each entry's turn message (when its session recorded one). */
async function withTurnMessages<T extends { readonly checkpoint: CheckpointEntry }>(
  items: readonly T[],
  lookup: TurnMessageOf | undefined,
): Promise<(T & WithTurnMessage)[]> {
  if (lookup === undefined) return [...items];
  return Promise.all(
    items.map(async (item) => {
      const { sessionId, turn } = item.checkpoint.attribution;
      const turnMessage = sessionId === undefined || turn === undefined ? undefined : await lookup(sessionId, turn);
      return turnMessage === undefined ? item : { ...item, turnMessage };
    }),
  );
}

/**
 * The directory now as a search's newer side: the walk's tree, and each changed file's bytes read
 * from the disk afterwards (not through a symlink, never waiting on a FIFO swapped in since the walk).
 */
export function liveTreeSide(dir: string, live: LiveTree, store: TreeReader): LiveTreeSide {
  return {
    kind: 'live',
    root: live.root,
    reader: overlayReader(live, store),
    readContent: (relativePath, file) => readLiveContent(absoluteIn(dir, relativePath), file, dir),
  };
}

/** Builds the history service. */
export function createHistoryService(options: HistoryServiceOptions): HistoryService {
  const { engine, rules } = options;
  const loadKnown: (dir: string) => Promise<KnownHashes> = knownHashesLoader(options.root);
  const store = { readTree: (oid: string) => engine.readTree(oid) };

  const liveFile = async (dir: string, relativePath: string): Promise<LiveSide> => {
    const live = await readLiveTree(dir, rules, createPathScope([relativePath]), await loadKnown(dir));
    const version = await historyTrees(overlayReader(live, store)).fileAt(live.root, relativePath.split('/'));
    return { kind: 'live', version };
  };

  const liveTree = async (dir: string): Promise<LiveTreeSide> =>
    liveTreeSide(dir, await readLiveTree(dir, rules, createPathScope([]), await loadKnown(dir)), store);

  return {
    async fileLog(dir, relativePath, { includeLive = true } = {}) {
      const path = createPathScope([relativePath]).paths[0] ?? relativePath;
      const entries = await allCheckpoints(engine, dir);
      const resolved = entries[0]?.dir ?? dir;
      const live: LiveSide = includeLive && entries.length > 0 ? await liveFile(resolved, path) : { kind: 'none' };
      const changes = await fileHistory(engine, entries, path, live);
      return {
        dir: resolved,
        path,
        checkpoints: entries.length,
        entries: await withTurnMessages(changes, options.turnMessageOf),
      };
    },

    async search(dir, text, { includeLive = true, limit = 500 } = {}) {
      const entries = await allCheckpoints(engine, dir);
      const resolved = entries[0]?.dir ?? dir;
      const live: LiveTreeSide = includeLive && entries.length > 0 ? await liveTree(resolved) : { kind: 'none' };
      const found = await searchText(engine, entries, text, live, limit);
      return {
        dir: resolved,
        text,
        checkpoints: entries.length,
        hits: await withTurnMessages(found.changes, options.turnMessageOf),
        isTruncated: found.isTruncated,
      };
    },
  };
}
