import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { agentSettings } from '../workspace';
import { fillWithFind } from './root-scan-fill';
import type { RootScanStore, StoredFolder } from './root-scan-store';

/** What a look through a root lists: `.git` entries, `HEAD` files, agents' settings, hard-linked files. */
export interface RootListing {
  readonly dotGits: { readonly path: string; readonly isFolder: boolean }[];
  readonly heads: string[];
  readonly settings: string[];
  readonly links: { readonly key: string; readonly count: number; readonly path: string }[];
}

/** One folder as last read: its times before the read, whether they were too recent to trust (read again next time), what it holds that counts, its subfolders. */
type FolderState = StoredFolder;

const settingNames = new Set(agentSettings.map((entry) => entry.name));

/**
 * A folder changed within this long before it was read is read again: a change in the same clock
 * tick as the one it showed would not show in its times (timestamps are coarser than the clock).
 * Past it, any later change moves its times by more than their precision.
 */
const racyWindowMs = 2000;

/** Folders read at once. */
const batchSize = 512;

/** Roots remembered; the least recently used is forgotten beyond this. */
const maxRoots = 64;

function emptyListing(): RootListing {
  return { dotGits: [], heads: [], settings: [], links: [] };
}

/** Reads one folder: what it holds that counts (hard links by their count, so files are looked at) and its subfolders. */
async function readFolder(folder: string, mtimeMs: number, ctimeMs: number, nowMs: number): Promise<FolderState> {
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

/**
 * What the sandbox looks for in a workspace root (repositories, `.git` files, agents' settings at
 * any depth, files hard-linked elsewhere), kept between commands: each call checks every folder's
 * times and reads again only the folders whose entries changed (a name added, removed or renamed
 * changes its folder's times), or that changed too recently to tell. A `.git` or a
 * `.claude/settings.json` made since the last call is therefore found on the next one. What it
 * cannot see is a new hard link made from outside the roots to a file whose folder did not change.
 */
export class RootScanCache {
  readonly #roots = new Map<string, Map<string, FolderState>>();
  readonly #now: () => number;
  readonly #store: RootScanStore | undefined;
  #reads = 0;

  /**
   * `now`: the clock a folder's times are compared with, to tell a recent change (default: the
   * system's); `store`: where what was read is kept for the next process (a one-shot command's).
   */
  constructor(options: { readonly now?: () => number; readonly store?: RootScanStore } = {}) {
    this.#now = options.now ?? Date.now;
    this.#store = options.store;
  }

  /** How many folders were read (listed) since this cache was made: the rest were known unchanged. */
  get folderReads(): number {
    return this.#reads;
  }

  /** The root's listing as it is now. */
  async list(root: string): Promise<RootListing> {
    const readsBefore = this.#reads;
    const folders = this.#roots.get(root) ?? (await this.#loaded(root)) ?? (await this.#fill(root));
    this.#roots.delete(root);
    this.#roots.set(root, folders);
    for (const forgotten of [...this.#roots.keys()].slice(0, Math.max(0, this.#roots.size - maxRoots)))
      this.#roots.delete(forgotten);
    const seen = new Set<string>();
    const listing = emptyListing();
    let pending = [root];
    while (pending.length > 0) {
      const next: string[] = [];
      for (let start = 0; start < pending.length; start += batchSize) {
        const batch = pending.slice(start, start + batchSize);
        const states = await Promise.all(batch.map((folder) => this.#current(folders, folder)));
        states.forEach((state, index) => {
          const folder = batch[index];
          if (state === undefined || folder === undefined) return;
          seen.add(folder);
          next.push(...state.subfolders);
          listing.dotGits.push(...state.listing.dotGits);
          listing.heads.push(...state.listing.heads);
          listing.settings.push(...state.listing.settings);
          listing.links.push(...state.listing.links);
        });
      }
      pending = next;
    }
    let isChanged = this.#reads !== readsBefore;
    for (const folder of folders.keys()) {
      if (seen.has(folder)) continue;
      folders.delete(folder);
      isChanged = true;
    }
    if (isChanged) await this.#store?.save(root, folders);
    return listing;
  }

  /** What the store kept of a root (a one-shot command's previous look), checked folder by folder like memory. */
  async #loaded(root: string): Promise<Map<string, FolderState> | undefined> {
    return this.#store?.load(root);
  }

  /** The first look at a root: GNU find lists it whole where it can (a folder it could not read is read from Node at once). */
  async #fill(root: string): Promise<Map<string, FolderState>> {
    const nowMs = this.#now();
    const folders = new Map<string, FolderState>();
    for (const [folder, filled] of (await fillWithFind(root)) ?? []) {
      const isRacy = filled.mtimeMs >= nowMs - racyWindowMs || filled.ctimeMs >= nowMs - racyWindowMs;
      folders.set(folder, { ...filled, isRacy });
    }
    this.#reads += folders.size;
    return folders;
  }

  /** A folder's state: the remembered one while its times are unchanged, else read now. */
  async #current(folders: Map<string, FolderState>, folder: string): Promise<FolderState | undefined> {
    const nowMs = this.#now();
    const stat = await lstat(folder).catch(() => undefined);
    if (stat === undefined || !stat.isDirectory()) {
      folders.delete(folder);
      return undefined;
    }
    const known = folders.get(folder);
    if (known !== undefined && !known.isRacy && known.mtimeMs === stat.mtimeMs && known.ctimeMs === stat.ctimeMs)
      return known;
    this.#reads += 1;
    const state = await readFolder(folder, stat.mtimeMs, stat.ctimeMs, nowMs);
    folders.set(folder, state);
    return state;
  }
}
