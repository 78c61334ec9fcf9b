import type { RestoreResult } from '../restore/restore-service';
import { describe, isSame, type DiskState, type StoredVersion } from './round-trip-truth';

/** What a restore is checked against: the disk before and after it, and the two trees as git reads them. */
export interface RestoreTruth {
  /** The disk just before the restore (the damaged project). */
  readonly before: DiskState;
  /** The disk after it. */
  readonly after: DiskState;
  /** The tree of the checkpoint restored. */
  readonly checkpoint: ReadonlyMap<string, StoredVersion>;
  /** The tree of the restore's pre-rollback snapshot. */
  readonly preRollback: ReadonlyMap<string, StoredVersion>;
  /** Whether a path is in the restore's scope (all of them for a whole restore). */
  readonly covers: (path: string) => boolean;
  /** The size cap (bytes) of the engine. */
  readonly cap: number;
}

/**
 * Whether a restore may leave a path the checkpoint stores as it was, by a documented decision:
 * `blocked` (shared/contract/checkpoints-restore-schemas.ts: "something in its way cannot be
 * moved"); `oversize` when the file now is over the size cap (design.md §4: "Excluded and
 * oversize files are never touched": no restore point could hold it); `secret` for a `.env*`
 * file (restore-service.ts, `allowSecrets`: written only when the user confirms, `--secrets`).
 */
function isDocumentedSkip(
  path: string,
  reason: string | undefined,
  was: StoredVersion | undefined,
  cap: number,
): boolean {
  if (reason === 'blocked') return true;
  if (reason === 'oversize') return (was?.size ?? 0) > cap;
  return reason === 'secret' && (path.split('/').pop() ?? '').startsWith('.env');
}

/** Paths of `a` and `b` together. */
function union(...maps: ReadonlyMap<string, unknown>[]): Set<string> {
  return new Set(maps.flatMap((map) => [...map.keys()]));
}

/**
 * The problems of one restore, as sentences (none: it kept every promise): every path the
 * checkpoint stores is on disk exactly (mode, content, symlink target) unless a documented skip
 * says why not; a path it does not store is untouched, or deleted only when the pre-rollback
 * snapshot holds it; nothing outside the scope moved; every outcome the result reports happened
 * on disk, and every change on disk has its outcome; the counts add up.
 */
export function restoreProblems(truth: RestoreTruth, result: RestoreResult): string[] {
  const { before, after, checkpoint, preRollback, covers } = truth;
  const problems: string[] = [];
  const outcomes = new Map(result.outcomes.map((outcome) => [outcome.path, outcome]));
  for (const path of union(before.files, after.files, checkpoint)) {
    const [was, now, stored] = [before.files.get(path), after.files.get(path), checkpoint.get(path)];
    const outcome = outcomes.get(path);
    const said = outcome === undefined ? 'no outcome' : `${outcome.result} ${outcome.action} ${outcome.reason ?? ''}`;
    const where = `${path}: before ${describe(was)}, after ${describe(now)}, checkpoint ${describe(stored)} (${said})`;
    if (!covers(path)) {
      if (!isSame(was, now)) problems.push(`changed outside the scope: ${where}`);
      continue;
    }
    if (stored !== undefined && !isSame(now, stored)) {
      const isAllowedSkip = outcome?.result === 'skipped' && isDocumentedSkip(path, outcome.reason, was, truth.cap);
      if (!isAllowedSkip || !isSame(was, now)) problems.push(`not restored: ${where}`);
    }
    if (stored === undefined && now !== undefined && !isSame(was, now)) problems.push(`made up: ${where}`);
    if (was !== undefined && now === undefined && !isSame(preRollback.get(path), was))
      problems.push(`deleted, and the pre-rollback snapshot does not hold it: ${where}`);
    if (stored === undefined && now !== undefined && preRollback.has(path) && outcome?.result !== 'skipped')
      problems.push(`kept, though the checkpoint does not hold it and no skip says why: ${where}`);
    const didChange = !isSame(was, now);
    if (didChange && outcome?.result !== 'done') problems.push(`changed with no "done" outcome: ${where}`);
    if (!didChange && outcome?.result === 'done') problems.push(`reported done, nothing changed: ${where}`);
  }
  for (const outcome of result.outcomes)
    if (outcome.result === 'conflict' || outcome.result === 'failed')
      problems.push(`${outcome.result} ${outcome.action} ${outcome.path}, though nothing else touched the folder`);
  for (const outcome of result.outcomes)
    if (!union(before.files, after.files, checkpoint).has(outcome.path) && outcome.result === 'done')
      problems.push(`an outcome for a path never seen: ${outcome.path} (${outcome.result} ${outcome.action})`);
  const done = result.outcomes.filter((outcome) => outcome.result === 'done').length;
  if (result.counts.done !== done) problems.push(`counts.done ${result.counts.done}, outcomes done ${done}`);
  const removed = new Set(result.removedDirectories);
  for (const folder of before.folders) {
    const isAccounted = [...removed, ...checkpoint.keys()].some(
      (item) => folder === item || folder.startsWith(`${item}/`),
    );
    if (covers(folder) && !after.folders.has(folder) && !isAccounted)
      problems.push(`folder ${folder} is gone and removedDirectories does not say so`);
  }
  for (const folder of result.removedDirectories)
    if (after.folders.has(folder) || !before.folders.has(folder))
      problems.push(`removedDirectories names ${folder}, which was not removed`);
  const isClean = result.counts.conflict + result.counts.failed === 0;
  if (result.status === 'complete' && (!isClean || problems.length > 0))
    problems.push(`status "complete" with ${problems.length} problem(s) and ${result.counts.failed} failure(s)`);
  return problems;
}

/**
 * The problems of undoing a restore (restoring its pre-rollback snapshot): every file the
 * pre-rollback snapshot holds, and every file the restore changed, is as it was before the
 * restore; nothing else changed.
 */
export function undoProblems(before: DiskState, restored: DiskState, undone: DiskState): string[] {
  const problems: string[] = [];
  for (const path of union(before.files, restored.files, undone.files)) {
    const [was, mid, now] = [before.files.get(path), restored.files.get(path), undone.files.get(path)];
    if (!isSame(was, now))
      problems.push(
        `undo left ${path} at ${describe(now)}; before the restore ${describe(was)}, after it ${describe(mid)}`,
      );
  }
  return problems;
}
