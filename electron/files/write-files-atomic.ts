import path from 'node:path';
import { AppError, isAppError, type ErrorCode } from '../../shared/errors';
import { toErrorData } from '../../shared/result';
import {
  resolveWriteTarget,
  stageWrite,
  syncDirectories,
  withPathLock,
  type AtomicContent,
  type AtomicWriteResult,
} from './atomic-write';
import { mapLimit } from './map-limit';
import { sweepStaleTemps } from './sweep-stale-temps';

/** One file of a batch write. */
export interface AtomicWriteEntry {
  readonly target: string;
  readonly content: AtomicContent;
  /** Explicit permission bits; otherwise as in `writeFileAtomic`. */
  readonly mode?: number;
}

/** Options of a batch write. */
export interface AtomicBatchOptions {
  /** How many files are in flight at once (default 16). */
  readonly concurrency?: number;
}

/** Files in flight at once by default: enough to overlap fsyncs, few enough for file-descriptor limits. */
const defaultConcurrency = 16;

/**
 * Writes many files, each one atomically, with the durability cost amortized: the files are
 * written and fsynced concurrently, each renamed over its target only after its own fsync, and
 * every touched directory is fsynced once at the end.
 *
 * Guarantees: every file holds either its whole old or its whole new content, at every instant
 * and after a crash (never a mix inside one file). The batch as a whole is not atomic: a crash or
 * a failure can leave some files new and others old. When the promise resolves, every file and
 * directory entry is durable. On the first failure no further files are started; files already in
 * flight finish, their directories are fsynced, and an AppError is thrown whose `details.written`
 * lists the files that were replaced and `details.failed` the ones that were not.
 */
export async function writeFilesAtomic(
  entries: readonly AtomicWriteEntry[],
  options: AtomicBatchOptions = {},
): Promise<AtomicWriteResult[]> {
  const concurrency = options.concurrency ?? defaultConcurrency;
  const targets = await mapLimit(entries, concurrency, (entry) => resolveWriteTarget(entry.target));
  const seen = new Map<string, number>();
  targets.forEach((target, index) => {
    const first = seen.get(target);
    if (first !== undefined) {
      throw new AppError(
        'invalid_request',
        `Entries ${first} and ${index} of the batch both write ${target}; nothing was written. Give each file once.`,
        { path: target },
      );
    }
    seen.set(target, index);
  });
  const directories = [...new Set(targets.map((target) => path.dirname(target)))];
  await mapLimit(directories, concurrency, sweepStaleTemps);

  const results = new Array<AtomicWriteResult | undefined>(entries.length);
  const failed: { readonly path: string; readonly code: ErrorCode; readonly message: string }[] = [];
  const toSync = new Set<string>();
  await mapLimit(entries, concurrency, async (entry, index) => {
    const target = targets[index] as string;
    if (failed.length > 0) return;
    try {
      const staged = await withPathLock(target, () =>
        stageWrite(target, entry.content, { mode: entry.mode, sweep: false }),
      );
      results[index] = staged.result;
      for (const directory of staged.directoriesToSync) toSync.add(directory);
    } catch (error) {
      if (!isAppError(error)) throw error;
      const data = toErrorData(error);
      failed.push({ path: target, code: data.code, message: data.message });
    }
  });
  await syncDirectories([...toSync]);
  const written = results.filter((result): result is AtomicWriteResult => result !== undefined);
  const first = failed[0];
  if (first !== undefined) {
    throw new AppError(
      first.code,
      `${written.length} of ${entries.length} files were written before a failure: ${first.message}`,
      { written: written.map((result) => result.path), failed },
    );
  }
  return written;
}
