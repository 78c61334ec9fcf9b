import path from 'node:path';
import type { RestoreGuard } from '../checkpoints';
import { isDirectory } from '../files';
import type { Logger } from '../logging';
import type { ResolvedMemoryDirectory } from './memory-config';
import { readMemoryFile, type MemoryFileSnapshot } from './memory-file';
import { memoryFileNames, memoryTargets } from './memory-format';
import { hermesSidecarMode, withMemoryLock } from './memory-lock';
import { markRestoring, writeWriteRecord } from './memory-write-record';
import { isPathInside } from '../lib';

/** A memory file a restore may write, with its folder. */
export interface GuardedMemoryFile {
  readonly file: string;
  readonly directory: ResolvedMemoryDirectory;
}

/** A memory file that a restore changed, as it is now. */
export interface RestoredMemoryFile extends GuardedMemoryFile {
  readonly snapshot: MemoryFileSnapshot;
}

/** What the memory restore guard needs. */
export interface MemoryRestoreGuardOptions {
  /** The memory folders managed right now. */
  readonly directories: () => readonly ResolvedMemoryDirectory[];
  /** The writer id the restore's versions are recorded under. */
  readonly writer: string;
  readonly logger: Logger;
  readonly lockTimeoutMs?: number;
  /** Runs the guarded restore in the caller's own order of work on these files (the memory service's queues). */
  readonly queue?: <T>(files: readonly GuardedMemoryFile[], work: () => Promise<T>) => Promise<T>;
  /** Called for each file the restore changed, after the locks are released (still inside `queue`). */
  readonly onRestored?: (restored: RestoredMemoryFile) => void;
}

/**
 * The memory files inside `dir` (the folder itself, or one below it), in a fixed order so that
 * locks are always taken in it; an optional folder that does not exist (Hermes's, not created
 * yet) is left alone, so no lock file ever creates it.
 */
async function filesWithin(dir: string, directories: readonly ResolvedMemoryDirectory[]): Promise<GuardedMemoryFile[]> {
  const root = path.resolve(dir);
  const inside = directories.filter((directory) => isPathInside(directory.path, root));
  const present = await Promise.all(
    inside.map(async (directory) => directory.isOptional !== true || (await isDirectory(directory.path))),
  );
  return inside
    .filter((_directory, index) => present[index] === true)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .flatMap((directory) =>
      memoryTargets.map((target) => ({ file: path.join(directory.path, memoryFileNames[target]), directory })),
    );
}

async function versionOf(file: string): Promise<MemoryFileSnapshot | undefined> {
  return readMemoryFile(file).catch(() => undefined);
}

/**
 * A restore guard for memory folders (design.md §5: memory directories are checkpointed
 * directories). A restore of a folder that holds managed memory files takes, for each of them and
 * in a fixed order, the same locks as a memory mutation — Vigil's lock file and Hermes's flock on
 * `MEMORY.md.lock` — so it never interleaves with a Hermes read-modify-write or a Vigil mutation;
 * and each file it changed is recorded in the write record as a restore by Vigil, so watchers
 * (in this process and others) report it as Vigil's restore, not as an external edit.
 */
export function createMemoryRestoreGuard(options: MemoryRestoreGuardOptions): RestoreGuard {
  const lockAll = <T>(files: readonly GuardedMemoryFile[], work: () => Promise<T>): Promise<T> =>
    files.reduceRight<() => Promise<T>>(
      (inner, { file, directory }) =>
        () =>
          withMemoryLock(file, inner, {
            purpose: 'restore a checkpoint',
            logger: options.logger,
            hermesSidecar: hermesSidecarMode(directory),
            timeoutMs: options.lockTimeoutMs,
          }),
      work,
    )();

  return async (dir, work) => {
    const files = await filesWithin(dir, options.directories());
    if (files.length === 0) return work();
    const queue = options.queue ?? (<T>(_files: readonly GuardedMemoryFile[], task: () => Promise<T>) => task());
    return queue(files, async () => {
      const restored: RestoredMemoryFile[] = [];
      const warn = (file: string) => (error: unknown) =>
        options.logger.warn('could not record a restore of a memory file', { file, error });
      const result = await lockAll(files, async () => {
        const before = await Promise.all(files.map((item) => versionOf(item.file)));
        for (const { file } of files) await markRestoring(file, options.writer).catch(warn(file));
        try {
          return await work();
        } finally {
          for (const [index, item] of files.entries()) {
            const after = await versionOf(item.file);
            const isChanged = after !== undefined && after.sha256 !== before[index]?.sha256;
            if (isChanged) restored.push({ ...item, snapshot: after });
            // The restored version joins the record (which ends the mark); a deletion has no version to record.
            const recording =
              isChanged && after.sha256 !== null
                ? writeWriteRecord(item.file, { sha256: after.sha256, writer: options.writer, isRestore: true })
                : markRestoring(item.file, undefined);
            await recording.catch(warn(item.file));
          }
        }
      });
      for (const item of restored) options.onRestored?.(item);
      return result;
    });
  };
}
