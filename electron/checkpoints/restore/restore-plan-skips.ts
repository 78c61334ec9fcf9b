import { isAppError } from '../../../shared/errors';
import { mapLimit } from '../../files';
import type { SkippedPath } from '../checkpoint-types';
import { decodeSkippedList } from '../timeline/commit-message';
import { diskEntry } from '../compare';
import type { PlanInput, RestorePlanEntry } from './restore-plan-types';

/** Paths checked on disk at once. */
export const diskConcurrency = 32;

/** What the checkpoint recorded as skipped when it was taken. */
export interface CheckpointSkips {
  readonly files: ReadonlySet<string>;
  /** Skipped folders, with their trailing `/`. */
  readonly folders: ReadonlySet<string>;
  /** Every path the list names (folders with their `/`), with the reason it was skipped. */
  readonly reasons: ReadonlyMap<string, SkippedPath['reason']>;
  /** False when the list was cut short and the complete one cannot be read: any path may have been skipped. */
  readonly isComplete: boolean;
}

/** The checkpoint's skips: its trailers, or the complete list from its blob when the trailers were cut short. */
export async function checkpointSkips(input: PlanInput): Promise<CheckpointSkips> {
  let list: readonly SkippedPath[] = input.checkpoint.skipped;
  let isComplete = !list.some((item) => item.reason === 'more');
  const { skippedList } = input.checkpoint;
  if (!isComplete && skippedList !== undefined && input.readBlob !== undefined) {
    const full = await input.readBlob(skippedList).then(decodeSkippedList, (error: unknown) => {
      if (isAppError(error)) return undefined;
      throw error;
    });
    if (full !== undefined) {
      list = full;
      isComplete = true;
    }
  }
  const files = new Set<string>();
  const folders = new Set<string>();
  const reasons = new Map<string, SkippedPath['reason']>();
  for (const item of list) {
    if (item.reason === 'more') continue;
    (item.path.endsWith('/') ? folders : files).add(item.path);
    reasons.set(item.path, item.reason);
  }
  return { files, folders, reasons, isComplete };
}

/** Whether the checkpoint recorded `relativePath` (or a folder holding it) as skipped when it was taken. */
export function wasSkippedByCheckpoint(skips: CheckpointSkips, relativePath: string): boolean {
  return skips.files.has(relativePath) || ancestorsOf(relativePath).some((folder) => skips.folders.has(`${folder}/`));
}

/** The reason the checkpoint skipped `relativePath` or the folder holding it. */
export function skippedReason(skips: CheckpointSkips, relativePath: string): SkippedPath['reason'] {
  const folder = ancestorsOf(relativePath).find((item) => skips.folders.has(`${item}/`));
  return skips.reasons.get(folder === undefined ? relativePath : `${folder}/`) ?? 'more';
}

/** Whether a file the checkpoint does not hold may be deleted: only when the checkpoint surely did not skip it. */
export function isDeletable(skips: CheckpointSkips, relativePath: string): boolean {
  return skips.isComplete && !wasSkippedByCheckpoint(skips, relativePath);
}

/** The ancestors of a path, outermost first (`a/b/c` → `a`, `a/b`). */
export function ancestorsOf(relativePath: string): string[] {
  const parts = relativePath.split('/');
  return parts.slice(0, -1).map((_part, index) => parts.slice(0, index + 1).join('/'));
}

/** Why a checkpoint left a path out, in words. */
const skipWords: Readonly<Record<SkippedPath['reason'], string>> = {
  excluded: 'the exclusion rules leave it out',
  vcs: 'it is a version-control folder',
  oversize: 'it was larger than the size cap',
  special: 'it was not a regular file',
  unreadable: 'it could not be read',
  'bad-name': 'its name could not be stored',
  more: 'it was skipped',
};

/** The plan line of a path the checkpoint left out and that is gone now: nothing can bring it back. */
export function lostEntry(item: string, reason: SkippedPath['reason']): RestorePlanEntry {
  return {
    path: item,
    action: 'skip',
    reason: 'lost',
    isChangedOutsideAgents: false,
    note: `The checkpoint did not store it (${skipWords[reason]}) and it is gone now, so no restore can bring it back.`,
  };
}

/**
 * The paths in scope the checkpoint left out (its skip list) that are gone from disk now: the
 * restore cannot bring them back, and says so (a deleted `.env`, a database, a file over the cap).
 */
export async function lostEntries(input: PlanInput, skips: CheckpointSkips): Promise<RestorePlanEntry[]> {
  const items = [...skips.reasons].filter(([item]) => input.scope.covers(item.replace(/\/$/, '')));
  const lost = await mapLimit(items, diskConcurrency, async ([item, reason]) =>
    (await diskEntry(input.dir, item.replace(/\/$/, ''))).kind === 'missing' ? lostEntry(item, reason) : undefined,
  );
  return lost.filter((entry): entry is RestorePlanEntry => entry !== undefined);
}
