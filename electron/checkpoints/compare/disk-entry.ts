import type { Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode, fileSystemError } from '../../files';

/** What is on disk at a path, without following a final symlink. */
export type DiskEntry =
  | { readonly kind: 'missing' }
  | { readonly kind: 'folder' }
  | { readonly kind: 'file'; readonly size: number }
  | { readonly kind: 'symlink' }
  | { readonly kind: 'special' };

/** The absolute path of a `/`-separated relative path inside `dir`. */
export function absoluteIn(dir: string, relativePath: string): string {
  return path.join(dir, ...relativePath.split('/'));
}

/**
 * What is at `relativePath` inside `dir`. A path through a file, or through a symlink that loops,
 * counts as missing: nothing is at it as such.
 */
export async function diskEntry(dir: string, relativePath: string): Promise<DiskEntry> {
  const absolute = absoluteIn(dir, relativePath);
  let stats: Stats;
  try {
    stats = await lstat(absolute);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return { kind: 'missing' };
    throw fileSystemError(error, 'inspect', absolute);
  }
  if (stats.isSymbolicLink()) return { kind: 'symlink' };
  if (stats.isDirectory()) return { kind: 'folder' };
  if (stats.isFile()) return { kind: 'file', size: stats.size };
  return { kind: 'special' };
}

/** Whether every folder on the way to `relativePath` inside `dir` is a real folder (no symlink, no file): what is there can be looked at without following a link. */
export async function hasRealFolders(dir: string, relativePath: string): Promise<boolean> {
  const parts = relativePath.split('/').slice(0, -1);
  for (let depth = 1; depth <= parts.length; depth += 1) {
    if ((await diskEntry(dir, parts.slice(0, depth).join('/'))).kind !== 'folder') return false;
  }
  return true;
}

/**
 * Every file, symlink or other non-folder entry under a folder (relative to `dir`), plus every
 * empty folder (as `path/`: no snapshot can bring one back, so callers must not remove it) and
 * every unreadable folder (as `path/`: something they cannot account for).
 */
export async function entriesUnder(dir: string, relativeFolder: string): Promise<string[]> {
  const found: string[] = [];
  let level = [relativeFolder];
  while (level.length > 0) {
    const next: string[] = [];
    for (const folder of level) {
      let names;
      try {
        names = await readdir(absoluteIn(dir, folder), { withFileTypes: true });
      } catch (error) {
        const code = errnoCode(error);
        if (code === 'ENOENT' || code === 'ENOTDIR') continue;
        found.push(`${folder}/`);
        continue;
      }
      if (names.length === 0 && folder !== relativeFolder) found.push(`${folder}/`);
      for (const entry of names) {
        const relativePath = `${folder}/${entry.name}`;
        if (entry.isDirectory()) next.push(relativePath);
        else found.push(relativePath);
      }
    }
    level = next;
  }
  return found;
}
