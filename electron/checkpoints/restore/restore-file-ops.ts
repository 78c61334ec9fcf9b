import { symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../shared/errors';
import {
  anchorFile,
  errnoCode,
  type FileIdentity,
  fileSystemError,
  holdDirectory,
  type HeldDirectory,
  isSameIdentity,
  linkedFolderError,
  readFileIdentity,
  renameWithRetry,
  replaceEntry,
  trackTempFile,
  vigilTempName,
  withHeldFolder,
  withPathLock,
  writeTempFile,
} from '../../files';
import { readDiskVersion, type DiskVersion, type KnownOid, type TreeFile } from '../compare';
import { fileModes } from '../../git-store';

/** A file changed between the snapshot and the write: it is left exactly as found. */
export class ChangedDuringRestoreError extends AppError {
  constructor(target: string) {
    super(
      'conflict',
      `${target} changed while the restore ran (after the pre-rollback snapshot), so it was left as it is. Plan the restore again.`,
      { path: target },
    );
  }
}

/**
 * Checks that `target` still holds `expected` (the version the pre-rollback snapshot stored;
 * undefined: nothing) and returns what was found, so the write or delete can insist on that version.
 * A file the snapshot's stat records vouch for (`known`) is not read again; one the plan already
 * looked at after the snapshot (`seen`) is not looked at again (the write checks its identity anyway).
 * `dir` is the restored directory: nothing is read through a folder below it that is a symlink now, and
 * such a path is refused with that reason (the write path would refuse it too: it never writes through one).
 */
export async function expectVersion(
  target: { readonly path: string; readonly dir: string },
  expected: TreeFile | undefined,
  known?: KnownOid,
  seen?: DiskVersion,
): Promise<DiskVersion> {
  const found = seen ?? (await readDiskVersion(target.path, known, { within: target.dir }));
  if (found.linkedFolder !== undefined) throw linkedFolderError(target.path, found.linkedFolder);
  const matches =
    expected === undefined
      ? found.identity === undefined
      : found.file?.oid === expected.oid && found.file.mode === expected.mode;
  if (!matches) throw new ChangedDuringRestoreError(target.path);
  return found;
}

/** The permission bits for a restored regular file: the existing ones with the execute bits set the checkpoint's way. */
function modeFor(file: TreeFile, existingMode: number | undefined): number | undefined {
  const isExecutable = file.mode === fileModes.executable;
  if (existingMode === undefined) return isExecutable ? 0o755 : undefined;
  const hasExecute = (existingMode & 0o100) !== 0;
  if (isExecutable === hasExecute) return undefined;
  return isExecutable ? existingMode | ((existingMode & 0o444) >> 2) : existingMode & ~0o111;
}

/** Puts a symlink (or a regular file replacing one) into a held folder: built under a temp name there and renamed over. */
async function replaceThroughTemp(
  folder: HeldDirectory,
  name: string,
  file: TreeFile,
  content: Uint8Array,
  identity: FileIdentity | undefined,
): Promise<void> {
  const display = path.join(folder.path, name);
  const tempName = vigilTempName(name);
  const untrack = trackTempFile(path.join(folder.path, tempName));
  try {
    if (file.mode === fileModes.symlink) await symlink(Buffer.from(content), folder.entry(tempName));
    else await writeTempFile(folder.entry(tempName), content, { mode: modeFor(file, undefined) });
    await folder.verify();
    if (!isSameIdentity(await readFileIdentity(folder.entry(name), display), identity))
      throw new ChangedDuringRestoreError(display);
    await renameWithRetry(folder.entry(tempName), folder.entry(name));
  } catch (error) {
    // Through the held folder: the temp file goes from where it was made, wherever a swap put its path.
    await unlink(folder.entry(tempName)).catch(() => undefined);
    throw fileSystemError(error, 'restore', display);
  } finally {
    untrack();
  }
}

/** Replaces the entry `name` of a held folder with the checkpoint's version; see `putFile`. */
async function replaceIn(
  folder: HeldDirectory,
  name: string,
  file: TreeFile,
  content: Uint8Array,
  found: DiskVersion,
): Promise<void> {
  const { identity } = found;
  const isRegularThere = found.file !== undefined && found.file.mode !== fileModes.symlink;
  if (file.mode !== fileModes.symlink && (identity === undefined || isRegularThere)) {
    // Stale temp files are swept once per folder before the batch (see applyRestorePlan), not per file.
    // `ifUnchanged` refuses the rename if the target changed since `found` was read.
    await replaceEntry(folder, name, content, identity === undefined ? undefined : found.existing, {
      mode: modeFor(file, found.permissions),
      ifUnchanged: { identity },
      sweep: false,
    }).catch((error: unknown) => {
      throw fileSystemError(error, 'restore', path.join(folder.path, name));
    });
  } else await replaceThroughTemp(folder, name, file, content, identity);
}

/**
 * Puts a checkpoint's version of a file (regular, executable or symlink) at `target`, atomically:
 * the new version is made under a temp name beside it and renamed over whatever is there, so a
 * crash leaves the old or the new version. Every step goes through the file's folder held open
 * (see `withHeldFolder`): a folder on the way swapped for a symlink meanwhile refuses the write
 * (`conflict`), and no temp file or content lands outside the directory. It also refuses when the
 * target is no longer the version `found` names, and creates missing folders only for a file that
 * was absent (a folder that vanished under an existing file is a swap, not a gap to fill).
 * Returns the folders whose entries changed (to fsync). `takeHeld` is offered the held folder of
 * a file that was there, once the new version is in place; returning true takes it over (see `FolderSyncs.syncHeld`).
 */
export async function putFile(
  target: string,
  file: TreeFile,
  content: Uint8Array,
  found: DiskVersion,
  takeHeld?: (folder: HeldDirectory) => boolean,
): Promise<{ readonly directoriesToSync: readonly string[] }> {
  const name = path.basename(target);
  if (found.identity !== undefined) {
    // A file that is there has its folder: held at once, no anchor to look up first (gone or swapped since: `conflict`).
    return withPathLock(target, async () => {
      const folder = await holdDirectory(path.dirname(target));
      let isTaken = false;
      try {
        await replaceIn(folder, name, file, content, found);
        // The caller may keep the held folder (to fsync it through this descriptor), and then closes it.
        isTaken = takeHeld?.(folder) === true;
        return { directoriesToSync: [folder.path] };
      } finally {
        if (!isTaken) await folder.close();
      }
    });
  }
  const anchored = await anchorFile(target);
  return withPathLock(target, () =>
    withHeldFolder(anchored, { create: true }, async ({ folder, created }) => {
      await replaceIn(folder, name, file, content, found);
      return { directoriesToSync: [...new Set([folder.path, ...created.map((made) => path.dirname(made))])] };
    }),
  );
}

/**
 * Deletes `target` if it is still the version `identity` names; a file already gone counts as
 * deleted. The check and the unlink go through its folder held open, so a folder swapped for a
 * symlink meanwhile cannot redirect the delete (`conflict`).
 */
export async function deleteFile(target: string, identity: FileIdentity | undefined): Promise<void> {
  const anchored = await anchorFile(target);
  if (anchored.folder.missing.length > 0) {
    if (identity === undefined) return;
    throw new ChangedDuringRestoreError(target);
  }
  const name = path.basename(target);
  await withPathLock(target, () =>
    withHeldFolder(anchored, { create: false }, async ({ folder }) => {
      if (!isSameIdentity(await readFileIdentity(folder.entry(name), target), identity))
        throw new ChangedDuringRestoreError(target);
      try {
        await unlink(folder.entry(name));
      } catch (error) {
        if (errnoCode(error) !== 'ENOENT') throw fileSystemError(error, 'delete', target);
      }
    }),
  );
}
