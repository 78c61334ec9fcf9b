import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { agentSettings } from '../workspace';
import type { RootListing } from './root-scan-cache';

/** One folder as last read: its times before the read, what it holds that counts, its subfolders. */
export interface FolderState {
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  /** Changed so recently that a change in the same clock tick would not show in its times: read again next time. */
  readonly isRacy: boolean;
  readonly subfolders: readonly string[];
  readonly listing: RootListing;
  /** The watcher's epoch when this state was last checked against the disk (undefined: no watcher covered it). */
  epoch?: number;
}

const settingNames = new Set(agentSettings.map((entry) => entry.name));

/**
 * A folder changed within this long before it was read is read again: a change in the same clock
 * tick as the one it showed would not show in its times (timestamps are coarser than the clock).
 * Past it, any later change moves its times by more than their precision.
 */
export const racyWindowMs = 2000;

/** A listing with nothing in it. */
export function emptyListing(): RootListing {
  return { dotGits: [], heads: [], settings: [], links: [] };
}

/** Reads one folder: what it holds that counts (hard links by their count, so files are looked at) and its subfolders. */
export async function readFolder(
  folder: string,
  mtimeMs: number,
  ctimeMs: number,
  nowMs: number,
): Promise<FolderState> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const listing = emptyListing();
  const subfolders: string[] = [];
  const files: string[] = [];
  const isGitFolder = path.basename(folder) === '.git';
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (entry.name === '.git') listing.dotGits.push({ path: full, isFolder: entry.isDirectory() });
    if (settingNames.has(entry.name)) listing.settings.push(full);
    if (entry.isDirectory()) {
      // Git's object folders hold nothing that counts, and most of a repository's entries.
      if (!(isGitFolder && entry.name === 'objects')) subfolders.push(full);
    } else if (entry.isFile()) {
      if (entry.name === 'HEAD') listing.heads.push(full);
      files.push(full);
    }
  }
  const stats = await Promise.all(files.map((file) => lstat(file, { bigint: true }).catch(() => undefined)));
  stats.forEach((stat, index) => {
    const file = files[index];
    if (stat !== undefined && file !== undefined && stat.nlink > 1n)
      listing.links.push({ key: `${stat.dev}:${stat.ino}`, count: Number(stat.nlink), path: file });
  });
  const isRacy = mtimeMs >= nowMs - racyWindowMs || ctimeMs >= nowMs - racyWindowMs;
  return { mtimeMs, ctimeMs, isRacy, subfolders, listing };
}
