import { lstat, readFile, readlink, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { resolveWriteTarget, stageWrite, withPathLock } from '../files/atomic-write';
import { ensureDirectories } from '../files/ensure-directories';
import { errnoCode, fileSystemError } from '../files/file-system-error';
import { isSameIdentity, readFileIdentity, type FileIdentity } from '../files/file-identity';
import { renameWithRetry } from '../files/rename-with-retry';
import { trackTempFile } from '../files/temp-registry';
import { vigilTempName } from '../files/vigil-temp-name';
import { writeTempFile } from '../files/write-temp-file';
import type { TreeFile } from './diff-tree-changes';
import { fileModes, hashObject } from './git-objects';

/** A file changed between the snapshot and the write: it is left exactly as found. */
export class ChangedDuringRestoreError extends AppError {
  constructor(target: string) {
    super('conflict', `${target} changed while the restore ran (after the pre-rollback snapshot), so it was left as it is. Plan the restore again.`, { path: target });
  }
}

/** What a file on disk holds, as git would store it, and the identity of that version. */
export interface DiskVersion {
  readonly file: TreeFile | undefined;
  readonly identity: FileIdentity | undefined;
}

/** Reads what is at `target` (a file or a symlink) as a stored version, with its identity taken first. */
export async function readDiskVersion(target: string): Promise<DiskVersion> {
  const identity = await readFileIdentity(target);
  if (identity === undefined) return { file: undefined, identity };
  try {
    const stats = await lstat(target);
    if (stats.isSymbolicLink()) return { file: { mode: fileModes.symlink, oid: hashObject('blob', await readlink(target, { encoding: 'buffer' })) }, identity };
    if (!stats.isFile()) return { file: undefined, identity };
    const mode = process.platform !== 'win32' && (stats.mode & 0o100) !== 0 ? fileModes.executable : fileModes.file;
    return { file: { mode, oid: hashObject('blob', await readFile(target)) }, identity };
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { file: undefined, identity: undefined };
    throw fileSystemError(error, 'read', target);
  }
}

/**
 * Checks that `target` still holds `expected` (the version the pre-rollback snapshot stored) and
 * returns that version's identity, so the write or delete can insist it is still the same file.
 */
export async function expectVersion(target: string, expected: TreeFile | undefined): Promise<FileIdentity | undefined> {
  const found = await readDiskVersion(target);
  const matches = expected === undefined ? found.identity === undefined : found.file?.oid === expected.oid && found.file.mode === expected.mode;
  if (!matches) throw new ChangedDuringRestoreError(target);
  return found.identity;
}

/** The permission bits for a restored regular file: the existing ones with the execute bits set the checkpoint's way. */
function modeFor(file: TreeFile, existingMode: number | undefined): number | undefined {
  const isExecutable = file.mode === fileModes.executable;
  if (existingMode === undefined) return isExecutable ? 0o755 : undefined;
  const hasExecute = (existingMode & 0o100) !== 0;
  if (isExecutable === hasExecute) return undefined;
  return isExecutable ? existingMode | ((existingMode & 0o444) >> 2) : existingMode & ~0o111;
}

/**
 * Puts a checkpoint's version of a file (regular, executable or symlink) at `target`, atomically:
 * the new version is made under a temp name beside it and renamed over whatever is there, so a
 * crash leaves the old or the new version. It refuses (`conflict`) when the path leads through a
 * symlink, or when the target is no longer the version `identity` names (undefined: absent).
 * Returns the folders whose entries changed (to fsync) and the folders it created.
 */
export async function putFile(target: string, file: TreeFile, content: Uint8Array, identity: FileIdentity | undefined): Promise<{ readonly directoriesToSync: readonly string[] }> {
  // The folders on the way must be real folders inside the directory; the entry itself is replaced, never followed.
  const resolved = path.join(await resolveWriteTarget(path.dirname(target), { requireCanonical: true }), path.basename(target));
  return withPathLock(resolved, async () => {
    const existing = await lstat(resolved).catch(() => undefined);
    if (file.mode !== fileModes.symlink && (existing === undefined || existing.isFile())) {
      // Stale temp files are swept once per folder before the batch (see applyRestorePlan), not per file.
      const staged = await stageWrite(resolved, content, { mode: modeFor(file, existing === undefined ? undefined : existing.mode & 0o7777), ifUnchanged: { identity }, sweep: false });
      return { directoriesToSync: staged.directoriesToSync };
    }
    // A symlink on either side: build the new entry under a temp name and rename it over.
    const directory = path.dirname(resolved);
    const created = await ensureDirectories(directory);
    const tempPath = path.join(directory, vigilTempName(path.basename(resolved)));
    const untrack = trackTempFile(tempPath);
    try {
      if (file.mode === fileModes.symlink) await symlink(Buffer.from(content), tempPath);
      else await writeTempFile(tempPath, content, { mode: modeFor(file, undefined) });
      if (!isSameIdentity(await readFileIdentity(resolved), identity)) throw new ChangedDuringRestoreError(resolved);
      await renameWithRetry(tempPath, resolved);
    } catch (error) {
      await unlink(tempPath).catch(() => undefined);
      throw fileSystemError(error, 'restore', resolved);
    } finally {
      untrack();
    }
    return { directoriesToSync: [...new Set([directory, ...created.map((folder) => path.dirname(folder))])] };
  });
}

/** Deletes `target` if it is still the version `identity` names; a file already gone counts as deleted. */
export async function deleteFile(target: string, identity: FileIdentity | undefined): Promise<void> {
  // A folder on the way swapped for a symlink must not redirect the delete outside the directory.
  await resolveWriteTarget(path.dirname(target), { requireCanonical: true });
  await withPathLock(target, async () => {
    if (!isSameIdentity(await readFileIdentity(target), identity)) throw new ChangedDuringRestoreError(target);
    try {
      await unlink(target);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw fileSystemError(error, 'delete', target);
    }
  });
}
