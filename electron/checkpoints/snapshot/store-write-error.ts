import { AppError, isAppError } from '../../../shared/errors';
import { errnoCode } from '../../files';

/** What the user can do about each way the store's disk refuses a write. */
const fixes: Readonly<Record<string, string>> = {
  ENOSPC: 'free space on that disk and try again',
  EDQUOT: 'free space within your disk quota and try again',
  EFBIG: 'an object is bigger than the file size limit (ulimit -f); raise the limit and try again',
  EROFS: 'make that file system writable again and try again',
  EACCES: 'check the permissions of that folder and try again',
  EPERM: 'check the permissions of that folder and try again',
  EIO: 'check that disk (it reported an I/O error) and try again',
};

/** The system's own words for an errno error: "ENOSPC: no space left on device" from "ENOSPC: no space left on device, write". */
function systemWords(error: unknown, code: string): string {
  const message = error instanceof Error ? error.message : '';
  if (!message.startsWith(`${code}: `)) return code;
  const comma = message.indexOf(', ');
  return comma < 0 ? message : message.slice(0, comma);
}

/**
 * A failure to store a hashed file's object (loose or packed) as the checkpoint's error: the store is the problem,
 * not the source file, so the whole checkpoint fails (never a file quietly left out as unreadable) and says so.
 * Anything that is not an fs error is a bug and is returned unchanged.
 */
export function storeWriteError(error: unknown, storeDir: string): unknown {
  if (isAppError(error)) return error;
  const code = errnoCode(error);
  if (code === undefined) return error;
  const fix = fixes[code] ?? 'check that disk and try again';
  const file = (error as NodeJS.ErrnoException).path;
  return new AppError(
    'io_error',
    `The checkpoint store at ${storeDir} could not be written (${systemWords(error, code)}); nothing was checkpointed: ${fix}.`,
    { path: storeDir, errno: code, ...(file === undefined ? {} : { file }) },
  );
}

/** Runs a write into the store at `storeDir`, its fs failure turned into `storeWriteError`'s. */
export async function writingStore<T>(storeDir: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw storeWriteError(error, storeDir);
  }
}
