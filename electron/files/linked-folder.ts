import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';

/** A folder on the way to a file, below the workspace, that is a symbolic link now. */
export interface LinkedFolder {
  /** The link's absolute path, as the caller spelled the workspace. */
  readonly folder: string;
  /** Its path below the workspace, `/`-separated. */
  readonly relativePath: string;
  /** Whether it leads out of the workspace (or nowhere that can be resolved). */
  readonly isOutside: boolean;
}

/** Whether `target` lies inside `root` or is it (both absolute). */
function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The outermost folder between `within` (not itself: a workspace reached through a link the user
 * chose is fine) and `file` (not itself) that is a symbolic link now, looked at one level at a
 * time without following it; undefined when every one is a real folder (or is gone).
 */
export async function linkedFolderOnTheWay(file: string, within: string): Promise<LinkedFolder | undefined> {
  const parts = path.relative(within, path.dirname(file)).split(path.sep);
  if (parts[0] === '' || parts[0] === '..' || path.isAbsolute(parts[0] ?? '')) return undefined;
  for (let depth = 1; depth <= parts.length; depth += 1) {
    const folder = path.join(within, ...parts.slice(0, depth));
    const stats = await lstat(folder).catch(() => undefined);
    if (stats === undefined) return undefined;
    if (stats.isDirectory()) continue;
    if (!stats.isSymbolicLink()) return undefined;
    const [root, target] = await Promise.all([
      realpath(within).catch(() => undefined),
      realpath(folder).catch(() => undefined),
    ]);
    const isOutside = root === undefined || target === undefined || !isInside(root, target);
    return { folder, relativePath: parts.slice(0, depth).join('/'), isOutside };
  }
  return undefined;
}

/** How a message names where a linked folder leads. */
export function linkedFolderTarget(linked: LinkedFolder): string {
  return linked.isOutside ? 'a folder outside the workspace' : 'another folder of the workspace';
}

/**
 * The refusal to read `file` through a folder that is a symbolic link: a checkpoint stores such a
 * link as a link (its target text), never what it points at, so nothing below it is the workspace's.
 */
export function linkedFolderError(file: string, linked: LinkedFolder): AppError {
  return new AppError(
    'wrong_kind',
    `${linked.relativePath} is a symbolic link to ${linkedFolderTarget(linked)}; Vigil does not read through it (a checkpoint stores the link itself, not what it points at), so ${file} is not read.`,
    { path: file, link: linked.folder },
  );
}
