import { execFile } from 'node:child_process';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { isPathInside } from '../lib';
import { agentSettings, gitDirOf, isGitDirectory } from '../workspace';
import type { RootListing, RootScanCache } from './root-scan-cache';
import { addEntryRecord, entryClauses, pruneObjects } from './root-scan-fill';

/** What one look through the workspace roots found that the sandbox must keep read-only. */
export interface RootScan {
  /** Git directories: `.git` folders, the targets of `.git` files inside a root, bare or planted ones. */
  readonly gitDirs: readonly { readonly gitDir: string; readonly workTree: string | undefined }[];
  /** `.git` files (worktrees, submodules): git follows their `gitdir:` line. */
  readonly gitFiles: readonly string[];
  /** Agent and editor settings folders and files, at any depth. */
  readonly settings: readonly string[];
  /** Files with a hard link outside the roots: writing them in place changes a file outside. */
  readonly linkedOutside: readonly string[];
  /** Every file of the roots with more than one link, by device and inode (each path once). */
  readonly links: RootListing['links'];
}

type Found = RootListing;

const settingNames = agentSettings.map((entry) => entry.name);

/** GNU find lists everything in one pass over each root (fast, in C); its output is NUL-separated records. */
function findArgs(root: string): string[] {
  return [root, ...pruneObjects(root), ...entryClauses()];
}

/** What find listed; undefined when it could not run (then the Node walk looks instead). */
function runFind(root: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('find', findArgs(root), { maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (error, stdout) => {
      // find exits 1 when a folder could not be read: what it listed still counts.
      resolve(error !== null && stdout === '' ? undefined : stdout);
    });
  });
}

function parseFind(output: string, found: Found): void {
  for (const record of output.split('\0')) if (record !== '') addEntryRecord(found, record);
}

/** The same look in Node, where GNU find is not there (macOS, Windows): slower, the same findings. */
async function walk(root: string, found: Found): Promise<void> {
  let pending = [root];
  while (pending.length > 0) {
    const next: string[] = [];
    for (const folder of pending) {
      const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const full = path.join(folder, entry.name);
        if (entry.name === '.git') found.dotGits.push({ path: full, isFolder: entry.isDirectory() });
        if (settingNames.includes(entry.name)) found.settings.push(full);
        if (entry.isDirectory()) {
          if (!(entry.name === 'objects' && path.basename(folder) === '.git')) next.push(full);
        } else if (entry.isFile()) {
          if (entry.name === 'HEAD') found.heads.push(full);
          const stats = await lstat(full).catch(() => undefined);
          if (stats !== undefined && stats.nlink > 1)
            found.links.push({ key: `${stats.dev}:${stats.ino}`, count: stats.nlink, path: full });
        }
      }
    }
    pending = next;
  }
}

/** Git directories by their `HEAD` file: the ones not inside a `.git` folder (those are reached from it). */
async function otherGitDirs(heads: readonly string[]): Promise<string[]> {
  const candidates = heads
    .map((head) => path.dirname(head))
    .filter((folder) => !folder.split(path.sep).includes('.git'));
  const checked = await Promise.all(candidates.map(async (folder) => ((await isGitDirectory(folder)) ? folder : '')));
  return checked.filter((folder) => folder !== '');
}

/** Adds one root's listing to what was found. */
function add(found: Found, listing: RootListing): void {
  found.dotGits.push(...listing.dotGits);
  found.heads.push(...listing.heads);
  found.settings.push(...listing.settings);
  found.links.push(...listing.links);
}

/** One folder listed whole: from the cache where there is one, else by GNU find (Linux) or a walk in Node. */
export async function listFolder(
  folder: string,
  platform: NodeJS.Platform = process.platform,
  cache?: RootScanCache,
): Promise<RootListing> {
  if (cache !== undefined) return cache.list(folder);
  const found: Found = { dotGits: [], heads: [], settings: [], links: [] };
  const listed = platform === 'linux' ? await runFind(folder) : undefined;
  if (listed === undefined) await walk(folder, found);
  else parseFind(listed, found);
  return found;
}

/** Each hard-linked path once (two roots, one inside the other, list it twice). */
export function distinctLinks(links: RootListing['links']): RootListing['links'] {
  const seen = new Set<string>();
  return links.filter((link) => {
    if (seen.has(link.path)) return false;
    seen.add(link.path);
    return true;
  });
}

/**
 * Looks through every root, at any depth (dependencies and nested repositories included, git's
 * object folders skipped): the repositories, `.git` files, agent settings and hard links to files
 * outside the roots that the command's profile keeps read-only. With a cache, only the folders
 * that changed since the last look are read again; without one, each root is listed whole.
 */
export async function scanRoots(
  roots: readonly string[],
  platform: NodeJS.Platform = process.platform,
  cache?: RootScanCache,
): Promise<RootScan> {
  const found: Found = { dotGits: [], heads: [], settings: [], links: [] };
  for (const root of roots) add(found, await listFolder(root, platform, cache));
  const gitDirs = new Map<string, string | undefined>();
  const gitFiles: string[] = [];
  // In path order, so that two `.git` files naming one git directory pair it with the same work tree however the roots were listed.
  const dotGits = [...found.dotGits].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const dotGit of dotGits) {
    if (!dotGit.isFolder) gitFiles.push(dotGit.path);
    const gitDir = await gitDirOf(dotGit.path);
    if (gitDir !== undefined && roots.some((root) => isPathInside(gitDir, root)))
      gitDirs.set(gitDir, path.dirname(dotGit.path));
  }
  for (const gitDir of await otherGitDirs(found.heads)) if (!gitDirs.has(gitDir)) gitDirs.set(gitDir, undefined);
  const links = distinctLinks(found.links);
  const inside = new Map<string, number>();
  for (const link of links) inside.set(link.key, (inside.get(link.key) ?? 0) + 1);
  const linkedOutside = links.filter((link) => (inside.get(link.key) ?? 0) < link.count).map((link) => link.path);
  return {
    gitDirs: [...gitDirs].map(([gitDir, workTree]) => ({ gitDir, workTree })),
    gitFiles,
    settings: [...new Set(found.settings)],
    linkedOutside,
    links,
  };
}
