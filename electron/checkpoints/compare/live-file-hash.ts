import type { BigIntStats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../shared/errors';
import { errnoCode, fileSystemError, linkedFolderError, readLiveFile, readLiveLink } from '../../files';
import type { LiveLinkRead } from '../../files';
import { hashObject } from '../../git-store';
import type { SkipReason } from '../checkpoint-types';
import type { KnownHashes } from '../snapshot/known-hashes';
import { modeOfStat } from '../snapshot/stat-walk';

/** How often a file swapped while it was looked at is looked at again, before the walk gives up on it. */
const maxLooks = 3;

/**
 * Hashes one file or symlink of `dir` as git would store it (or takes a known id), or says why it cannot be
 * stored. `looked` is its lstat when the walk has one; an agent may swap what is at the name after
 * it: a folder, FIFO or device read there is `special` (as the snapshot's reader finds it), a file
 * grown past the cap is `oversize`, and a symlink or another file put there is looked at again. A folder on
 * the way below `dir` that is a symlink now (swapped in after the walk listed it) is never read through: a
 * snapshot would store that link, not this file, so the comparison is refused with that reason (`wrong_kind`).
 * `realDir` is `dir`'s real path when a walk resolved it once (else it is resolved per file read).
 */
export function hashLiveFile(
  dir: string,
  relativePath: string,
  maxFileBytes: number,
  known: KnownHashes,
  looked?: BigIntStats,
  realDir?: string,
): Promise<{ readonly mode: string; readonly oid: string } | SkipReason | undefined> {
  return hashLooking(dir, relativePath, { maxFileBytes, known, realDir }, looked, 1);
}

/** What every look at one file shares. */
interface HashRules {
  readonly maxFileBytes: number;
  readonly known: KnownHashes;
  readonly realDir: string | undefined;
}

async function hashLooking(
  dir: string,
  relativePath: string,
  rules: HashRules,
  looked: BigIntStats | undefined,
  looks: number,
): Promise<{ readonly mode: string; readonly oid: string } | SkipReason | undefined> {
  const { maxFileBytes, known } = rules;
  const absolute = path.join(dir, relativePath);
  try {
    const stats = looked ?? (await lstat(absolute, { bigint: true }));
    if (stats.isDirectory()) return undefined;
    if (!stats.isFile() && !stats.isSymbolicLink()) return 'special';
    if (stats.isFile() && stats.size > BigInt(maxFileBytes)) return 'oversize';
    const mode = modeOfStat(stats);
    const oid = known.oidOf(relativePath, stats, mode);
    if (oid !== undefined) return { mode, oid };
    const read = stats.isSymbolicLink()
      ? await readLinkAsFile(absolute, dir)
      : await readLiveFile(absolute, {
          expected: stats,
          maxBytes: maxFileBytes,
          within: dir,
          realWithin: rules.realDir,
        });
    switch (read.kind) {
      case 'read':
        return { mode, oid: hashObject('blob', read.content) };
      case 'special':
      case 'oversize':
        return read.kind;
      case 'linked-folder':
        throw linkedFolderError(absolute, read.linked);
      case 'changed':
        if (looks >= maxLooks) throw changedWhileRead(absolute);
        return await hashLooking(dir, relativePath, rules, undefined, looks + 1);
    }
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (code === 'EACCES' || code === 'EPERM') return 'unreadable';
    throw fileSystemError(error, 'read', absolute);
  }
}

/** A live symlink's target read as the content git stores for it, or why it was not, as a file's read says. */
async function readLinkAsFile(
  absolute: string,
  dir: string,
): Promise<{ kind: 'read'; content: Buffer } | Exclude<LiveLinkRead, { kind: 'read' }>> {
  const link = await readLiveLink(absolute, dir);
  return link.kind === 'read' ? { kind: 'read', content: link.target } : link;
}

function changedWhileRead(absolute: string): AppError {
  return new AppError(
    'conflict',
    `${absolute} kept changing while it was read (another program swaps it). Try again.`,
    {
      path: absolute,
    },
  );
}
