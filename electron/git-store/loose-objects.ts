import { randomBytes } from 'node:crypto';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { objectHeader, type ObjectType } from './git-objects';
import { deflateObject } from './object-zlib';
import type { PackedObject } from './pack-file';

/** zlib level of loose objects: git's own default (core.looseCompression 1), the fastest. */
const looseLevel = 1;

/** Whether a name in `objects/xx/` is a finished loose object (38 hex). */
export function isLooseObjectName(name: string): boolean {
  return /^[0-9a-f]{38}$/.test(name);
}

/**
 * Writes one loose object file at `target` (in `fanDir`), as git does: deflated, into a read-only
 * temp file, renamed into place. The temp file is removed when the rename fails. With `isKeptOpen`
 * the written file's handle is returned still open, for the caller to fsync through and close
 * (a reopen by name for the fsync costs two more trips through the thread pool).
 */
export async function writeLooseFile(
  fanDir: string,
  target: string,
  type: ObjectType,
  content: Uint8Array,
  isKeptOpen = false,
): Promise<FileHandle | undefined> {
  const compressed = await deflateObject(Buffer.concat([objectHeader(type, content.length), content]), looseLevel);
  // git's own temp prefix: `git fsck` tolerates these, and repair removes a dead writer's ones.
  const temp = path.join(fanDir, `tmp_obj_${randomBytes(6).toString('hex')}`);
  const handle = await open(temp, 'wx', 0o444);
  let isClosed = false;
  try {
    await handle.writeFile(compressed);
    if (!isKeptOpen) {
      isClosed = true;
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    if (!isClosed) await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return isKeptOpen ? handle : undefined;
}

/** Splits an inflated loose object into its type and content, checking the header. */
export function parseLooseObject(oid: string, raw: Buffer): PackedObject {
  const nul = raw.indexOf(0);
  const [type, size] = raw.toString('latin1', 0, Math.max(nul, 0)).split(' ');
  const content = raw.subarray(nul + 1);
  if (
    nul < 0 ||
    (type !== 'blob' && type !== 'tree' && type !== 'commit' && type !== 'tag') ||
    Number(size) !== content.length
  ) {
    throw new AppError(
      'io_error',
      `The checkpoint store's object ${oid} is damaged. Restart Vigil to repair the store.`,
      { oid },
    );
  }
  return { type, content };
}
