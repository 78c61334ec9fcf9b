import type { BigIntStats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { errnoCode, fileSystemError } from './file-system-error';

/** What identifies one version of a file on disk: any write, rename over it or chmod changes it. */
export interface FileIdentity {
  readonly ino: string;
  readonly size: string;
  readonly mtimeNs: string;
  readonly ctimeNs: string;
}

/** The identity in a stat (an lstat, or an fstat of an open file). */
export function fileIdentityOf(stats: BigIntStats): FileIdentity {
  return {
    ino: String(stats.ino),
    size: String(stats.size),
    mtimeNs: String(stats.mtimeNs),
    ctimeNs: String(stats.ctimeNs),
  };
}

/**
 * The identity of the file at `target` (not following a final symlink), or undefined when nothing
 * is there. `display` names it in errors when `target` is a descriptor-relative path.
 */
export async function readFileIdentity(target: string, display = target): Promise<FileIdentity | undefined> {
  try {
    return fileIdentityOf(await lstat(target, { bigint: true }));
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw fileSystemError(error, 'inspect', display);
  }
}

/** Whether two identities (or absences) name the same version of a file. */
export function isSameIdentity(a: FileIdentity | undefined, b: FileIdentity | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}
