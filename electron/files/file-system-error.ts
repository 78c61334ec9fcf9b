import { AppError, isAppError, type ErrorCode } from '../../shared/errors';

/** The errno code of a Node fs error, if it is one. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const { code } = error;
  return typeof code === 'string' ? code : undefined;
}

/** What each errno means for the user, and the error code it maps to. */
const meanings: Readonly<Record<string, readonly [ErrorCode, string]>> = {
  ENOENT: ['not_found', 'it does not exist'],
  EISDIR: ['wrong_kind', 'it is a directory'],
  ENOTDIR: ['wrong_kind', 'a part of the path is a file, not a directory'],
  EEXIST: ['conflict', 'something else already exists there'],
  ENOSPC: ['io_error', 'the disk is full; free some space and try again'],
  EDQUOT: ['io_error', 'the disk quota is exhausted; free some space and try again'],
  EACCES: ['io_error', 'permission denied; check the permissions of the file and its directory'],
  EPERM: [
    'io_error',
    'the operation is not permitted; check the permissions and whether another program holds the file',
  ],
  EROFS: ['io_error', 'the file system is read-only'],
  EBUSY: ['busy', 'the file is busy (another program holds it open); try again when it is released'],
  ENAMETOOLONG: ['invalid_request', 'the name is too long for the file system'],
  ELOOP: ['io_error', 'the path has too many levels of symbolic links (a symlink loop?)'],
  EMFILE: ['busy', 'too many files are open; try again'],
  ENFILE: ['busy', 'too many files are open system-wide; try again'],
  EIO: ['io_error', 'the device reported an I/O error'],
  EXDEV: ['io_error', 'the path crosses file systems'],
};

/**
 * Turns a Node fs error into an AppError whose message names the action, the path and the fix.
 * An AppError passes through unchanged; anything that is not an fs error is a bug and is rethrown.
 */
export function fileSystemError(error: unknown, action: string, target: string): AppError {
  if (isAppError(error)) return error;
  const code = errnoCode(error);
  if (code === undefined) throw error;
  const [appCode, meaning] = meanings[code] ?? ['io_error', `the system reported ${code}`];
  return new AppError(appCode, `Could not ${action} ${target}: ${meaning}.`, { path: target, errno: code });
}
