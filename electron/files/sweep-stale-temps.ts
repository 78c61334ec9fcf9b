import { readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { isProcessAlive } from '../lib';
import { isTempFileInFlight } from './temp-registry';
import { isVigilTempFile, parseVigilTempName } from './vigil-temp-name';

/**
 * Whether a Vigil temp file was left behind by a writer that can no longer finish it: its process
 * is gone, or it is this very thread's and not in flight (an earlier holder of the pid, or a
 * failed cleanup). Temps of other live processes, or of other threads of this one, are left alone.
 */
function isStale(tempPath: string): boolean {
  const writer = parseVigilTempName(path.basename(tempPath));
  if (writer === undefined) return false;
  if (writer.pid !== process.pid) return !isProcessAlive(writer.pid);
  return writer.thread === threadId && !isTempFileInFlight(tempPath);
}

/**
 * Deletes the stale Vigil temp files of one directory (a SIGKILLed writer cannot clean up after
 * itself) and returns their paths. Only names that match Vigil's temp pattern are considered, so
 * nobody else's files are ever touched. Best effort: a directory that cannot be read is skipped.
 */
export function sweepStaleTemps(directory: string): Promise<readonly string[]> {
  return sweepStaleTempsIn(directory, directory);
}

/** `sweepStaleTemps` for a folder whose fs calls go through `access` (a held folder's descriptor path). */
export async function sweepStaleTempsIn(directory: string, access: string): Promise<readonly string[]> {
  let names: string[];
  try {
    names = await readdir(access);
  } catch {
    return [];
  }
  const removed: string[] = [];
  // Most folders hold no temp file at all: names that are not one are passed over before any path or promise is made.
  await Promise.all(
    names.filter(isVigilTempFile).map(async (name) => {
      const tempPath = path.join(directory, name);
      if (!isStale(tempPath)) return;
      try {
        await unlink(path.join(access, name));
        removed.push(tempPath);
      } catch {
        // Another sweeper got there first, or it cannot be removed: leave it for the next write.
      }
    }),
  );
  return removed;
}

/** Deletes those of `tempPaths` (Vigil temp files another listing found) that are stale (see `sweepStaleTemps`); returns them. */
export async function sweepStaleTempFiles(tempPaths: readonly string[]): Promise<readonly string[]> {
  const removed: string[] = [];
  await Promise.all(
    tempPaths.filter(isStale).map(async (tempPath) => {
      try {
        await unlink(tempPath);
        removed.push(tempPath);
      } catch {
        // Another sweeper got there first, or it cannot be removed: leave it for the next write.
      }
    }),
  );
  return removed;
}
