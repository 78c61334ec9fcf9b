import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { isPathInside } from '../lib';

/** What finding a path's workspace root needs besides the path. */
export interface WorkspaceFacts {
  /** The user's home folder. */
  readonly home: string;
  /** The folders Vigil checkpoints already (its registry). */
  readonly knownDirectories: () => Promise<readonly string[]>;
}

/** The file-system root and the home folder itself: never checkpointed whole (design §4). */
export function isWholeRefused(directory: string, home: string): boolean {
  const resolved = path.resolve(directory);
  return resolved === path.resolve(home) || path.parse(resolved).root === resolved;
}

function innermost(candidate: string, folders: readonly string[], home: string): string | undefined {
  return folders
    .filter((folder) => !isWholeRefused(folder, home) && isPathInside(candidate, folder))
    .sort((a, b) => b.length - a.length)[0];
}

/** The git work tree holding a path (the nearest folder with a `.git`), below the home folder or the root, never either. */
async function gitWorkTreeOf(absolute: string, home: string): Promise<string | undefined> {
  let folder = path.dirname(absolute);
  const isFolder = await lstat(absolute).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
  if (isFolder) folder = absolute;
  for (let depth = 0; depth < 64 && !isWholeRefused(folder, home); depth += 1) {
    if (
      await lstat(path.join(folder, '.git')).then(
        () => true,
        () => false,
      )
    )
      return folder;
    const parent = path.dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
  return undefined;
}

/**
 * The workspace root a path is checkpointed at: the innermost root of the session that holds it;
 * else its own — a folder Vigil already checkpoints, else the git work tree it is in. Never the
 * file-system root or the home folder itself. Undefined: no root, so the change is unsupervised.
 */
export async function workspaceRootOf(
  absolute: string,
  sessionRoots: readonly string[],
  facts: WorkspaceFacts,
): Promise<string | undefined> {
  const inSession = innermost(absolute, sessionRoots, facts.home);
  if (inSession !== undefined) return inSession;
  const known = innermost(absolute, await facts.knownDirectories(), facts.home);
  return known ?? gitWorkTreeOf(absolute, facts.home);
}
