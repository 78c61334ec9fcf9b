import { mapLimit } from '../../files';
import type { CheckpointApi } from '../checkpoint-api';
import type { CheckpointEntry } from '../checkpoint-types';
import type { TreeFile } from '../compare';
import { fileModes } from '../../git-store';
import { historyTrees, rootTreeOf } from './history-trees';

/** What a history walk reads: the merged timeline and its objects. */
export type HistoryEngine = Pick<CheckpointApi, 'list' | 'readTree' | 'readBlob'>;

/** The most checkpoints one walk looks at (retention keeps far fewer by default). */
export const maxHistoryCheckpoints = 50_000;

/** Checkpoints looked up at once (enough to hide I/O latency, few enough for descriptor limits). */
const readConcurrency = 32;

/** One version of a file: a checkpoint after which the file changed, and what it became. */
export interface FileVersionChange {
  readonly checkpoint: CheckpointEntry;
  /** Its number in the timeline (1 = newest), as `vigil checkpoints list` numbers it. */
  readonly number: number;
  /** The file as the checkpoint holds it (absent: it did not exist then). */
  readonly version?: TreeFile;
  /** What it became by the next checkpoint, or now (absent: deleted). */
  readonly next?: TreeFile;
  /** The next checkpoint's id, or `live`. */
  readonly nextCheckpoint: string;
  readonly status: 'added' | 'modified' | 'deleted' | 'type-changed';
}

/** The newer side of the newest checkpoint: the directory now (a file version, or absent), or nothing to compare with. */
export type LiveSide = { readonly kind: 'live'; readonly version: TreeFile | undefined } | { readonly kind: 'none' };

function isSame(a: TreeFile | undefined, b: TreeFile | undefined): boolean {
  return a === undefined ? b === undefined : b !== undefined && a.oid === b.oid && a.mode === b.mode;
}

function statusOf(version: TreeFile | undefined, next: TreeFile | undefined): FileVersionChange['status'] {
  if (version === undefined) return 'added';
  if (next === undefined) return 'deleted';
  return (version.mode === fileModes.symlink) === (next.mode === fileModes.symlink) ? 'modified' : 'type-changed';
}

/** Every checkpoint of a directory, newest first, across stores (up to the walk's limit). */
export async function allCheckpoints(engine: HistoryEngine, dir: string): Promise<readonly CheckpointEntry[]> {
  return engine.list(dir, { limit: maxHistoryCheckpoints });
}

/**
 * A file's history: every checkpoint after which the file changed (by the next checkpoint, or by
 * now for the newest), newest first. A checkpoint is taken before a turn's first change, so the
 * change after it is that turn's (or someone's outside any agent). Equal subtrees are never
 * entered twice: the cost grows with the number of checkpoints and the changes, not the tree.
 */
export async function fileHistory(
  engine: HistoryEngine,
  entries: readonly CheckpointEntry[],
  relativePath: string,
  live: LiveSide,
): Promise<FileVersionChange[]> {
  const trees = historyTrees({ readTree: (oid) => engine.readTree(oid) });
  const parts = relativePath.split('/');
  const versions = await mapLimit(entries, readConcurrency, (entry) => trees.fileAt(rootTreeOf(entry.tree), parts));
  const changes: FileVersionChange[] = [];
  for (const [index, checkpoint] of entries.entries()) {
    const version = versions[index];
    const newer = index === 0 ? undefined : entries[index - 1];
    if (newer === undefined && live.kind === 'none') continue;
    const next = newer === undefined ? (live.kind === 'live' ? live.version : undefined) : versions[index - 1];
    if (isSame(version, next)) continue;
    changes.push({
      checkpoint,
      number: index + 1,
      version,
      next,
      nextCheckpoint: newer?.id ?? 'live',
      status: statusOf(version, next),
    });
  }
  return changes;
}
