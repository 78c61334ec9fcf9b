import { execFile } from 'node:child_process';
import path from 'node:path';
import { agentSettings } from '../workspace';
import type { RootListing } from './root-scan-cache';

/** One folder as a whole-root listing found it: its times, its subfolders, what it holds that counts. */
export interface FilledFolder {
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly subfolders: string[];
  readonly listing: RootListing;
}

const settingNames = agentSettings.map((entry) => entry.name);

/**
 * find's clauses for the entries that count, each printed as one NUL-ended record: a `.git`
 * (`Gd`/`Gf`), a git directory's `HEAD` (`H`), a file with more than one link (`L` with device,
 * inode and count) and an agent's settings (`S`). Read back by `addEntryRecord`.
 */
export function entryClauses(): string[] {
  const names = settingNames.flatMap((name, index) => (index === 0 ? ['-name', name] : ['-o', '-name', name]));
  return [
    ...['(', '-name', '.git', '-printf', 'G%y %p\\0', ')', ','],
    ...['(', '-name', 'HEAD', '-type', 'f', '-printf', 'H %p\\0', ')', ','],
    ...['(', '-type', 'f', '-links', '+1', '-printf', 'L%D:%i:%n %p\\0', ')', ','],
    ...['(', '(', ...names, ')', '-printf', 'S %p\\0', ')'],
  ];
}

/** Adds one record printed by `entryClauses` to `listing` (other records are left alone). */
export function addEntryRecord(listing: RootListing, record: string): void {
  const space = record.indexOf(' ');
  const head = record.slice(0, space);
  const file = record.slice(space + 1);
  if (head.startsWith('G')) listing.dotGits.push({ path: file, isFolder: head === 'Gd' });
  else if (head === 'H') listing.heads.push(file);
  else if (head === 'S') listing.settings.push(file);
  else if (head.startsWith('L')) {
    const [device, inode, links] = head.slice(1).split(':');
    listing.links.push({ key: `${device}:${inode}`, count: Number(links), path: file });
  }
}

/** `text` as a find pattern that matches only itself (`*`, `?`, `[` and `\\` escaped). */
function literalPattern(text: string): string {
  return text.replace(/[*?[\]\\]/gu, '\\$&');
}

/**
 * find's clause that skips git's object folders below `root` (most of a repository's entries, and
 * nothing that counts there) but not `root` itself: an object folder listed on its own is looked
 * through (`git-object-links.ts`).
 */
export function pruneObjects(root: string): string[] {
  return ['(', '-path', '*/.git/objects', '!', '-path', literalPattern(root), '-prune', ')', '-o'];
}

/** GNU find's arguments: every folder with its times, and each entry that counts, in one pass (in C, no stat where the name decides). */
function findArgs(root: string): string[] {
  return [
    root,
    ...pruneObjects(root),
    ...['(', '-type', 'd', '-printf', 'D%T@ %C@ %p\\0', ')', ','],
    ...entryClauses(),
  ];
}

/** A time as find prints it (`seconds.fraction`), in milliseconds computed as Node computes `mtimeMs` (so equal times compare equal). */
function milliseconds(text: string): number {
  const [seconds = '0', fraction = ''] = text.split('.');
  const nanoseconds = Number(fraction.padEnd(9, '0').slice(0, 9));
  return Number(seconds) * 1e3 + nanoseconds / 1e6;
}

function folderOf(folders: Map<string, FilledFolder>, file: string): RootListing | undefined {
  return folders.get(path.dirname(file))?.listing;
}

/** Sorts find's records into folders. */
function parse(output: string, root: string): Map<string, FilledFolder> {
  const folders = new Map<string, FilledFolder>();
  const records = output.split('\0').filter((record) => record !== '');
  for (const record of records) {
    if (!record.startsWith('D')) continue;
    const first = record.indexOf(' ');
    const second = record.indexOf(' ', first + 1);
    folders.set(record.slice(second + 1), {
      mtimeMs: milliseconds(record.slice(1, first)),
      ctimeMs: milliseconds(record.slice(first + 1, second)),
      subfolders: [],
      listing: { dotGits: [], heads: [], settings: [], links: [] },
    });
  }
  for (const folder of folders.keys()) if (folder !== root) folders.get(path.dirname(folder))?.subfolders.push(folder);
  for (const record of records) {
    if (record.startsWith('D')) continue;
    const listing = folderOf(folders, record.slice(record.indexOf(' ') + 1));
    if (listing !== undefined) addEntryRecord(listing, record);
  }
  return folders;
}

/**
 * A whole root listed at once by GNU find (Linux), folder by folder: the first look of a cache,
 * several times faster than reading every folder from Node. Undefined where find cannot run
 * (then each folder is read from Node) or did not list the root itself.
 */
export function fillWithFind(root: string): Promise<Map<string, FilledFolder> | undefined> {
  if (process.platform !== 'linux') return Promise.resolve(undefined);
  return new Promise((resolve) => {
    execFile('find', findArgs(root), { maxBuffer: 512 * 1024 * 1024, encoding: 'utf8' }, (error, stdout) => {
      // find exits 1 when a folder could not be read: what it listed still counts (as a Node read would, that folder
      // is listed empty until its times change: making it readable again changes them).
      if (error !== null && stdout === '') {
        resolve(undefined);
        return;
      }
      const folders = parse(stdout, root);
      resolve(folders.has(root) ? folders : undefined);
    });
  });
}
