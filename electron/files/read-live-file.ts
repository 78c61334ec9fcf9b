import { constants, type BigIntStats } from 'node:fs';
import { open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from './file-system-error';
import { optionalFlags } from './open-flags';
import { linkedFolderOnTheWay, type LinkedFolder } from './linked-folder';

/**
 * Opens for reading without blocking, so that a FIFO put at the name cannot hold the open, and one
 * of libuv's four pool threads, until some writer comes (what is opened is then found special by
 * its fstat, or by a positional read). O_NONBLOCK does nothing to a regular file.
 */
export const nonBlockingReadFlags = constants.O_RDONLY | (optionalFlags.O_NONBLOCK ?? 0);

/** How a file another program controls (an agent's workspace) is opened for reading: also never through a symlink at its name (ELOOP). */
export const liveReadFlags = nonBlockingReadFlags | (optionalFlags.O_NOFOLLOW ?? 0);

/**
 * Whether a read failed because what was opened is not a regular file (swapped in after an
 * lstat): a folder (EISDIR), or a FIFO, which the non-blocking open let through and a positional
 * read refuses (ESPIPE).
 */
export function isSpecialRead(error: unknown): boolean {
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  return code === 'EISDIR' || code === 'ESPIPE';
}

/** What reading a live file found. */
export type LiveFileRead =
  | { readonly kind: 'read'; readonly content: Buffer; readonly stats: BigIntStats }
  /** Not a regular file: a folder, FIFO, socket or device (`stats`, its fstat, says which). */
  | { readonly kind: 'special'; readonly stats: BigIntStats }
  /** Not the file that was checked: a symlink is at the name now, or another file than `expected`. */
  | { readonly kind: 'changed' }
  /** Reached through a folder below `within` that is a symbolic link: never read (see `linkedFolderError`). */
  | { readonly kind: 'linked-folder'; readonly linked: LinkedFolder }
  /** Larger than the caller's cap (nothing was read). */
  | { readonly kind: 'oversize'; readonly size: bigint };

/** What a caller knows of the file before reading it. */
export interface LiveReadOptions {
  /** The device and inode its lstat saw: another file at the name reads as `changed`. */
  readonly expected?: { readonly dev: bigint; readonly ino: bigint };
  /** Files larger than this are not read (`oversize`), even when they grew after the lstat. */
  readonly maxBytes?: number;
  /** Follow a symlink at the name (for files git itself follows: its config, ignore files, index); never blocking still. */
  readonly followsSymlink?: boolean;
  /**
   * The folder the file is in, at any depth: a folder on the way below it that is a symlink (swapped in
   * after the caller's check) reads as `changed`. O_NOFOLLOW guards the last name only; this asks where
   * the descriptor really is (Linux, /proc/self/fd) and compares it with the path below the folder's real one.
   * A folder on the way that is a symlink now reads as `linked-folder` (one that was moved back meanwhile: `changed`).
   */
  readonly within?: string;
  /** `within`'s real path, when the caller resolved it once for many reads (a walk), so it is not resolved per file. */
  readonly realWithin?: string;
}

/** Whether what `handle` opened is `file` reached through no symlink below `within` (true where that cannot be asked). */
async function isReachedDirectly(
  handle: FileHandle,
  file: string,
  within: string,
  realWithin: string | undefined,
): Promise<boolean> {
  if (process.platform !== 'linux') return true;
  const [opened, root] = await Promise.all([
    readlink(`/proc/self/fd/${String(handle.fd)}`).catch(() => undefined),
    realWithin ?? realpath(within).catch(() => undefined),
  ]);
  if (opened === undefined || root === undefined) return true;
  return opened === path.join(root, path.relative(within, file));
}

/**
 * The whole file from offset 0 by positional reads; undefined once it holds more than `maxBytes`.
 * The first read asks one byte more than the fstat's size, so the usual case is one read: a read of
 * a regular file comes back short only at its end (POSIX; see read-small-file.ts).
 */
async function readToEnd(handle: FileHandle, size: number, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (let want = size + 1; ; want = Math.max(want, 64 * 1024)) {
    const buffer = Buffer.allocUnsafe(want);
    const { bytesRead } = await handle.read(buffer, 0, want, total);
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) return undefined;
    if (bytesRead < want) break;
  }
  return Buffer.concat(chunks, total);
}

/**
 * Reads a file of a folder another program controls, which may swap what is at the name between
 * a caller's lstat and this open: opened without following a symlink and without blocking, then
 * checked through its descriptor (an fstat): a regular file, the one `expected` names, no larger
 * than `maxBytes`. ENOENT and other errors of the open are thrown as they are (ELOOP too when
 * `followsSymlink`: a symlink loop).
 */
export async function readLiveFile(file: string, options: LiveReadOptions = {}): Promise<LiveFileRead> {
  let handle: FileHandle;
  try {
    handle = await open(file, options.followsSymlink === true ? nonBlockingReadFlags : liveReadFlags);
  } catch (error) {
    if (errnoCode(error) === 'ELOOP' && options.followsSymlink !== true) return { kind: 'changed' };
    throw error;
  }
  try {
    const stats = await handle.stat({ bigint: true });
    const { expected, maxBytes = Number.MAX_SAFE_INTEGER } = options;
    if (!stats.isFile()) return { kind: 'special', stats };
    if (expected !== undefined && (stats.dev !== expected.dev || stats.ino !== expected.ino))
      return { kind: 'changed' };
    if (options.within !== undefined && !(await isReachedDirectly(handle, file, options.within, options.realWithin))) {
      const linked = await linkedFolderOnTheWay(file, options.within);
      return linked === undefined ? { kind: 'changed' } : { kind: 'linked-folder', linked };
    }
    if (stats.size > BigInt(maxBytes)) return { kind: 'oversize', size: stats.size };
    const content = await readToEnd(handle, Number(stats.size), maxBytes);
    return content === undefined ? { kind: 'oversize', size: stats.size } : { kind: 'read', content, stats };
  } finally {
    await handle.close();
  }
}

/**
 * A live file's text, or undefined when it is missing, unreadable, or not a regular file (a FIFO is
 * never waited on); for small files whose absence and damage mean the same to the caller (git's files).
 */
export async function readLiveText(file: string, options: LiveReadOptions = {}): Promise<string | undefined> {
  const read = await readLiveFile(file, options).catch(() => undefined);
  return read?.kind === 'read' ? read.content.toString('utf8') : undefined;
}
