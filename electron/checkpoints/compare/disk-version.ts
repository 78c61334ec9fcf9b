import type { BigIntStats } from 'node:fs';
import { lstat, open, readlink } from 'node:fs/promises';
import { errnoCode, fileSystemError } from '../../files';
import type { ExistingFile, FileIdentity } from '../../files';
import type { TreeFile } from './diff-tree-changes';
import { fileModes, hashObject, type FileMode } from '../../git-store';
import { modeOfStat } from '../snapshot/stat-walk';

/** What a file on disk holds, as git would store it, and the identity of that version. */
export interface DiskVersion {
  readonly file: TreeFile | undefined;
  /** Undefined when nothing is there. */
  readonly identity: FileIdentity | undefined;
  /** The permission bits of a regular file. */
  readonly permissions?: number;
  /** A regular file's mode and owner, as the lstat found them (what a replacement keeps). */
  readonly existing?: ExistingFile;
}

/** Reads exactly `size` bytes (fewer if the file shrank meanwhile: the hash then differs, as it should). */
async function readBytes(target: string, size: number): Promise<Buffer> {
  const handle = await open(target, 'r');
  try {
    const buffer = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(buffer, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/**
 * The blob id a snapshot's stat record proves a regular file holds (its stat unchanged since it was
 * hashed, and the record not racy: the engine's own rule for not reading a file again), else undefined.
 */
export type KnownOid = (stats: BigIntStats, mode: FileMode) => string | undefined;

/**
 * Reads what is at `target` (a file or a symlink) as a stored version, with the identity of the
 * version read: one lstat, then the content (unless `known` vouches for it). A later write changes
 * the identity, so a caller that insists on this identity acts on exactly the content hashed here.
 */
export async function readDiskVersion(target: string, known?: KnownOid, looks = 0): Promise<DiskVersion> {
  try {
    const stats = await lstat(target, { bigint: true });
    const identity: FileIdentity = {
      ino: String(stats.ino),
      size: String(stats.size),
      mtimeNs: String(stats.mtimeNs),
      ctimeNs: String(stats.ctimeNs),
    };
    if (stats.isSymbolicLink())
      return {
        file: { mode: fileModes.symlink, oid: hashObject('blob', await readlink(target, { encoding: 'buffer' })) },
        identity,
      };
    if (!stats.isFile()) return { file: undefined, identity };
    const mode = modeOfStat(stats);
    const oid = known?.(stats, mode) ?? hashObject('blob', await readBytes(target, Number(stats.size)));
    return {
      file: { mode, oid },
      identity,
      permissions: Number(stats.mode & 0o7777n),
      existing: { mode: Number(stats.mode), uid: Number(stats.uid), gid: Number(stats.gid) },
    };
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { file: undefined, identity: undefined };
    // It stopped being a link between the lstat and the readlink (another program swapped it): look again.
    if (code === 'EINVAL' && looks < 3) return readDiskVersion(target, known, looks + 1);
    throw fileSystemError(error, 'read', target);
  }
}
