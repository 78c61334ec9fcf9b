import type { BigIntStats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { AppError } from '../../../shared/errors';
import { errnoCode, fileSystemError, readLiveFile, readLiveLink } from '../../files';
import type { ExistingFile, FileIdentity, LinkedFolder } from '../../files';
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
  /** The bytes hashed, when asked for (`keepContent`) and read (not vouched for by `known`). */
  readonly content?: Buffer;
  /**
   * Set (with `file` undefined) when a folder on the way below `within` is a symbolic link now: nothing
   * was read through it. `identity` is then that of whatever the link leads to, and means nothing here.
   */
  readonly linkedFolder?: LinkedFolder;
}

/** What a caller asks of `readDiskVersion` besides the version. */
export interface DiskVersionOptions {
  /** Keep the bytes read, so that a caller that needs them does not read the file a second time. */
  readonly keepContent?: boolean;
  /**
   * The folder `target` is in (at any depth), which another program controls: a symlink's target is
   * read inside its own folder, and nothing is read through a folder on the way below this one that is a
   * symlink (the version says so: `linkedFolder`), see `readLiveLink` and `readLiveFile`.
   */
  readonly within: string;
}

/** Looks again at a path another program swaps while it is read, at most this many times. */
const maxLooks = 3;

/**
 * The blob id a snapshot's stat record proves a regular file holds (its stat unchanged since it was
 * hashed, and the record not racy: the engine's own rule for not reading a file again), else undefined.
 */
export type KnownOid = (stats: BigIntStats, mode: FileMode) => string | undefined;

/**
 * Reads what is at `target` (a file or a symlink) as a stored version, with the identity of the
 * version read: one lstat, then the content (unless `known` vouches for it). A later write changes
 * the identity, so a caller that insists on this identity acts on exactly the content hashed here.
 * A symlink, another file or a FIFO swapped in after the lstat is not read: the path is looked at again.
 */
export async function readDiskVersion(
  target: string,
  known: KnownOid | undefined,
  options: DiskVersionOptions,
  looks = 0,
): Promise<DiskVersion> {
  try {
    const stats = await lstat(target, { bigint: true });
    const identity: FileIdentity = {
      ino: String(stats.ino),
      size: String(stats.size),
      mtimeNs: String(stats.mtimeNs),
      ctimeNs: String(stats.ctimeNs),
    };
    // What another program swapped in since the lstat is looked at again.
    const lookAgain = (): Promise<DiskVersion> => {
      if (looks < maxLooks) return readDiskVersion(target, known, options, looks + 1);
      throw new AppError(
        'conflict',
        `${target} kept changing while it was read (another program swaps it). Try again.`,
        {
          path: target,
        },
      );
    };
    if (stats.isSymbolicLink()) {
      const link = await readLiveLink(target, options.within);
      if (link.kind === 'linked-folder') return { file: undefined, identity, linkedFolder: link.linked };
      if (link.kind !== 'read') return await lookAgain();
      return { file: { mode: fileModes.symlink, oid: hashObject('blob', link.target) }, identity };
    }
    if (!stats.isFile()) return { file: undefined, identity };
    const mode = modeOfStat(stats);
    let oid = known?.(stats, mode);
    let content: Buffer | undefined;
    if (oid === undefined) {
      // Not through a symlink, not waiting on a FIFO.
      const read = await readLiveFile(target, { expected: stats, within: options.within });
      if (read.kind === 'linked-folder') return { file: undefined, identity, linkedFolder: read.linked };
      if (read.kind !== 'read') return await lookAgain();
      oid = hashObject('blob', read.content);
      if (options.keepContent === true) content = read.content;
    }
    return {
      file: { mode, oid },
      identity,
      permissions: Number(stats.mode & 0o7777n),
      existing: { mode: Number(stats.mode), uid: Number(stats.uid), gid: Number(stats.gid) },
      ...(content !== undefined && { content }),
    };
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { file: undefined, identity: undefined };
    // It stopped being a link between the lstat and the readlink (another program swapped it): look again.
    if (code === 'EINVAL' && looks < maxLooks) return readDiskVersion(target, known, options, looks + 1);
    throw fileSystemError(error, 'read', target);
  }
}
