/**
 * files' public face: other folders import only this file (lint: vigil/public-face).
 *
 * The bottom layer of the main process's disk access: atomic writes, held folders, file errors.
 * Light paths (the hashing worker, `vigil tool`, `vigil write`, the walk's head start, the one-shot
 * core) import it too: the build rewrites a named import of a face to the module that defines the
 * name (scripts/build/face-imports.ts).
 */

/** Atomic writes: a temp file renamed over the target, the folder synced, one writer per path. */
export { syncDirectories, withPathLock, writeFileAtomic } from './atomic-write';
export { writeFilesAtomic } from './write-files-atomic';
export { writeTempFile } from './write-temp-file';
export { replaceEntry } from './replace-entry';
export type { ExistingFile } from './replace-entry';
export { renameWithRetry } from './rename-with-retry';
export { syncDirectory } from './sync-directory';
/** A path as the file system spells it (symlinks resolved, case as stored). */
export { canonicalPath } from './canonical-path';
/** Reading text: binary files and invalid UTF-8 refused with their offset. */
export {
  binaryFileError,
  binaryProbeBytes,
  decodeUtf8File,
  hasBinaryBytes,
  invalidUtf8Offset,
  isValidUtf8,
  notUtf8Error,
} from './decode-utf8';
/** Files reached through a held folder, so a swapped symlink on the way cannot redirect them. */
export { editAnchoredFile } from './edit-file-atomic';
export { anchorFile, withHeldFolder } from './folder-anchor';
export type { AnchoredFile } from './folder-anchor';
export { holdChildDirectory, holdDirectory } from './held-directory';
export { optionalFlags } from './open-flags';
export type { HeldDirectory } from './held-directory';
export { openHeldEntry } from './open-held-entry';
/** Reads of files an agent controls: no symlink followed, no FIFO waited on, checked by the descriptor. */
export { isSpecialRead, liveReadFlags, nonBlockingReadFlags, readLiveFile, readLiveText } from './read-live-file';
export type { LiveFileRead, LiveReadOptions } from './read-live-file';
export { readLiveLink, type LiveLinkRead } from './read-live-link';
export { linkedFolderError, linkedFolderOnTheWay, linkedFolderTarget, type LinkedFolder } from './linked-folder';
export type { OpenedEntry } from './open-held-entry';
export { writeAnchoredFile } from './write-anchored-file';
/** Which file is there: device, inode and times, to see a file replaced behind one's back. */
export { fileIdentityOf, isSameIdentity, readFileIdentity } from './file-identity';
export type { FileIdentity } from './file-identity';
/** File-system errors as data with codes. */
export { errnoCode, fileSystemError } from './file-system-error';
/** Whether a path is a directory (through symlinks). */
export { isDirectory } from './is-directory';

/** A small file's text in three trips through the thread pool (open, one read, close). */
export { readSmallFile } from './read-small-file';
/** An in-process lock per key. */
export { KeyedLock } from './keyed-lock';
/** Runs a task on every item with at most a limit running at once. */
export { mapLimit } from './map-limit';
/** Errors of `link()` that mean hard links cannot be made here. */
export { noHardLinkCodes } from './no-hard-links';
/** Vigil's temp files: their names, the ones in flight, and the sweep of those left behind. */
export { isVigilBookkeepingFile, isVigilTempFile, vigilTempName } from './vigil-temp-name';
export { trackTempFile } from './temp-registry';
export { sweepStaleTempFiles, sweepStaleTemps } from './sweep-stale-temps';
