import { randomBytes } from 'node:crypto';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { errnoCode, syncDirectory } from '../files';

/** A file written and (unless asked not to) fsynced under a temp name beside its target, not yet in place. */
export interface StagedFile {
  /** Renames the temp file over the target. */
  readonly commit: () => Promise<void>;
  /** Removes the temp file (the target is left as it was). */
  readonly discard: () => Promise<void>;
}

/**
 * Writes `content` to a temp file beside `target` (`.tmp-<pid>-<hex>`, swept at start if left
 * behind) and fsyncs it, without putting it in place: a caller can make the content durable while
 * it waits for something else, and only then rename it over the target (`commit`).
 */
export async function stageFileDurably(
  target: string,
  content: string | Uint8Array | readonly Uint8Array[],
  options: { readonly sync?: boolean } = {},
): Promise<StagedFile> {
  const temp = `${target}${durableTempMarker}${process.pid}-${randomBytes(4).toString('hex')}`;
  const discard = (): Promise<void> => unlink(temp).catch(() => undefined);
  try {
    const handle = await open(temp, 'w', 0o644);
    try {
      if (typeof content === 'string' || content instanceof Uint8Array) await handle.writeFile(content);
      else await writeParts(handle, content);
      if (options.sync !== false) await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await discard();
    throw error;
  }
  return {
    commit: async () => {
      try {
        await rename(temp, target);
      } catch (error) {
        await discard();
        throw error;
      }
    },
    discard,
  };
}

/**
 * Replaces a small store file (a ref, the shallow list, a registry entry, a stat cache) in one
 * step: written to a temp file beside it, fsynced, renamed over it. A crash leaves the old file
 * or the new one, never a mix; leftover temps end in `.tmp-<pid>-<hex>` and are swept at start.
 */
export async function writeFileDurably(
  target: string,
  content: string | Uint8Array | readonly Uint8Array[],
  options: { readonly sync?: boolean } = {},
): Promise<void> {
  await (await stageFileDurably(target, content, options)).commit();
}

/**
 * Writes `parts` one after another from the start of a new file: in one gathered write when it
 * takes them all (a big file's parts are not copied into one buffer first), else the rest part by part.
 */
async function writeParts(handle: FileHandle, parts: readonly Uint8Array[]): Promise<void> {
  // From the file's current position (the start), which each write moves on.
  let { bytesWritten } = await handle.writev(parts as Uint8Array[]);
  for (const part of parts) {
    const written = Math.min(bytesWritten, part.length);
    bytesWritten -= written;
    if (written < part.length) await handle.writeFile(part.subarray(written));
  }
}

/** What a leftover temp file of `writeFileDurably` has in its name. */
export const durableTempMarker = '.tmp-';

/** Whether a file name is a leftover temp file of `writeFileDurably`. */
export function isDurableTemp(name: string): boolean {
  return /\.tmp-\d+-[0-9a-f]{8}$/.test(name);
}

/** fsyncs one existing file (opened for reading: enough on Linux and macOS, and store objects are read-only); false when it is gone. */
export async function syncFileIfPresent(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'r');
    await handle.sync();
    return true;
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') return false;
    // Windows cannot flush a read-only handle; NTFS offers nothing stronger to ask for here.
    if (process.platform === 'win32' && (code === 'EPERM' || code === 'EACCES')) return true;
    throw error;
  } finally {
    await handle?.close();
  }
}

/** fsyncs one existing folder (see `syncDirectory`); false when it is gone (a fan-out folder emptied by a collection). */
export async function syncFolderIfPresent(folder: string): Promise<boolean> {
  try {
    await syncDirectory(folder);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw error;
  }
}
