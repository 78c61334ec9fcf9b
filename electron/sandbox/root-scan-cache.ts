import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { isPathInside } from '../lib';
import { emptyListing, racyWindowMs, readFolder, type FolderState } from './root-scan-folder';
import { fillWithFind } from './root-scan-fill';
import { isSameFolderContent } from './root-scan-content';
import type { RootScanStore } from './root-scan-store';
import { maxChanges, type RootChanges, type ScanFolderEvents, type ScanFolderWatch } from './root-scan-watch';

/** What a look through a root lists: `.git` entries, `HEAD` files, agents' settings, hard-linked files. */
export interface RootListing {
  readonly dotGits: { readonly path: string; readonly isFolder: boolean }[];
  readonly heads: string[];
  readonly settings: string[];
  readonly links: { readonly key: string; readonly count: number; readonly path: string }[];
}

/** Folders read at once. */
const batchSize = 512;

/**
 * Folders a look may read again, finding what they held, without saving the store: bubblewrap's
 * mount points move the root's times after every command, so saving for that alone is wasted work.
 */
const maxUnsavedReads = 8;

/** Roots remembered; the least recently used is forgotten beyond this. */
const maxRoots = 64;

/** What one look needs to decide, folder by folder, whether the disk must be asked. */
interface Look {
  readonly folders: Map<string, FolderState>;
  /** The watch over the root, caught up with every change made before the look; undefined: ask the disk everywhere. */
  readonly watch: ScanFolderWatch | undefined;
  /** Whether the changes below are every change since the last look (else every folder is checked). */
  readonly isTrusted: boolean;
  /** Folders some change was reported in (their entries are read again). */
  readonly changedIn: ReadonlySet<string>;
  /** Paths reported changed themselves: a folder among them is read again with everything below it. */
  readonly changed: ReadonlySet<string>;
}

/** A folder the walk reached: whether a change was reported at or above it, whether the watcher covers it. */
interface Pending {
  readonly folder: string;
  readonly isForced: boolean;
  readonly isCovered: boolean;
}

/** Whether a change was reported at the folder, in it, or at a folder above it (then it is read again). */
function isChangedIn(look: Look, item: Pending): boolean {
  return item.isForced || look.changed.has(item.folder) || look.changedIn.has(item.folder);
}

/**
 * What the sandbox looks for in a workspace root (repositories, `.git` files, agents' settings at
 * any depth, files hard-linked elsewhere), kept between commands. Where a resident core's watcher
 * covers a folder and has caught up (a sync cookie), the folder is read again only when a change
 * was reported in it (a name added, removed or renamed, a file's links or times) or above it, and
 * every folder is checked when the watcher may have missed events. Elsewhere (no watcher, folders
 * it does not look inside such as `node_modules`), each call checks every folder's times and reads
 * again only the folders whose entries changed, or that changed too recently to tell: there, a
 * new hard link made from outside the roots to a file whose folder did not change is not seen.
 */
export class RootScanCache {
  readonly #roots = new Map<string, Map<string, FolderState>>();
  readonly #now: () => number;
  readonly #store: RootScanStore | undefined;
  readonly #events: ScanFolderEvents | undefined;
  readonly #changes = new Map<string, RootChanges>();
  readonly #stopListening: () => void;
  #reads = 0;
  /** Reads that found something new (or a folder not known before): the store is saved after a look with any. */
  #newReads = 0;
  #checks = 0;

  /**
   * `now`: the clock a folder's times are compared with, to tell a recent change (default: the
   * system's); `store`: where what was read is kept for the next process (a one-shot command's);
   * `events`: a resident core's watchers (default: none, every folder's times are checked).
   */
  constructor(
    options: { readonly now?: () => number; readonly store?: RootScanStore; readonly events?: ScanFolderEvents } = {},
  ) {
    this.#now = options.now ?? Date.now;
    this.#store = options.store;
    this.#events = options.events;
    this.#stopListening = options.events?.onChanged((changed) => this.#noteChange(changed)) ?? (() => undefined);
  }

  /** How many folders were read (listed) since this cache was made: the rest were known unchanged. */
  get folderReads(): number {
    return this.#reads;
  }

  /** How many folders were asked of the disk (their times, or read) since this cache was made. */
  get folderChecks(): number {
    return this.#checks;
  }

  /** Stops listening to the watchers. */
  dispose(): void {
    this.#stopListening();
    this.#changes.clear();
  }

  #noteChange(changed: string): void {
    for (const [root, changes] of this.#changes) {
      if (changes.isOverflowed || !isPathInside(changed, root)) continue;
      changes.paths.add(changed);
      if (changes.paths.size > maxChanges) {
        changes.isOverflowed = true;
        changes.paths.clear();
      }
    }
  }

  /** The watch to trust for this look, caught up, and the changes reported before it (taken: later ones count next time). */
  async #look(root: string, folders: Map<string, FolderState>): Promise<Look> {
    const watch = this.#events?.watchOf(root);
    const isCaughtUp = watch !== undefined && (await watch.catchUp());
    const changes = this.#changes.get(root);
    this.#changes.set(root, { paths: new Set(), isOverflowed: false });
    const changed = changes?.paths ?? new Set<string>();
    return {
      folders,
      watch: isCaughtUp ? watch : undefined,
      // Changes count only when they were collected since the last look, all of them.
      isTrusted: isCaughtUp && changes !== undefined && !changes.isOverflowed,
      changed,
      changedIn: new Set([...changed].map((item) => path.dirname(item))),
    };
  }

  /** The root's listing as it is now. */
  async list(root: string): Promise<RootListing> {
    const readsBefore = this.#reads;
    const newReadsBefore = this.#newReads;
    const loaded = this.#roots.has(root) ? undefined : await this.#loaded(root);
    const isKnown = this.#roots.has(root) || loaded !== undefined;
    const look = await this.#look(root, this.#roots.get(root) ?? loaded ?? new Map<string, FolderState>());
    const folders = isKnown ? look.folders : await this.#fill(root, look.folders, look.watch?.epoch);
    this.#roots.delete(root);
    this.#roots.set(root, folders);
    for (const forgotten of [...this.#roots.keys()].slice(0, Math.max(0, this.#roots.size - maxRoots))) {
      this.#roots.delete(forgotten);
      this.#changes.delete(forgotten);
    }
    const seen = new Set<string>();
    const listing = emptyListing();
    let pending: Pending[] = [
      { folder: root, isForced: look.changed.has(root), isCovered: look.watch?.covers(root) === true },
    ];
    while (pending.length > 0) {
      const states = await this.#states(look, pending);
      const next: Pending[] = [];
      pending.forEach((item, index) => {
        const state = states[index];
        if (state === undefined) return;
        seen.add(item.folder);
        for (const subfolder of state.subfolders)
          next.push({
            folder: subfolder,
            isForced: item.isForced || look.changed.has(subfolder),
            isCovered: item.isCovered && look.watch?.coversSubfolder(subfolder) === true,
          });
        listing.dotGits.push(...state.listing.dotGits);
        listing.heads.push(...state.listing.heads);
        listing.settings.push(...state.listing.settings);
        listing.links.push(...state.listing.links);
      });
      pending = next;
    }
    let isChanged = this.#newReads !== newReadsBefore || this.#reads - readsBefore > maxUnsavedReads;
    for (const folder of folders.keys()) {
      if (seen.has(folder)) continue;
      folders.delete(folder);
      isChanged = true;
    }
    if (isChanged) await this.#store?.save(root, folders);
    return listing;
  }

  /**
   * What the store kept of a root (a one-shot command's previous look), checked folder by folder
   * like memory. A watcher's epoch belongs to the process that stamped it: none is trusted from a file.
   */
  async #loaded(root: string): Promise<Map<string, FolderState> | undefined> {
    const stored = await this.#store?.load(root);
    if (stored === undefined) return undefined;
    return new Map([...stored].map(([folder, state]) => [folder, { ...state, epoch: undefined }]));
  }

  /** The first look at a root: GNU find lists it whole where it can (a folder it could not read is read from Node at once). */
  async #fill(
    root: string,
    folders: Map<string, FolderState>,
    epoch: number | undefined,
  ): Promise<Map<string, FolderState>> {
    const nowMs = this.#now();
    for (const [folder, filled] of (await fillWithFind(root)) ?? []) {
      const isRacy = filled.mtimeMs >= nowMs - racyWindowMs || filled.ctimeMs >= nowMs - racyWindowMs;
      folders.set(folder, { ...filled, isRacy, ...(epoch === undefined ? {} : { epoch }) });
    }
    this.#reads += folders.size;
    this.#newReads += folders.size;
    this.#checks += folders.size;
    return folders;
  }

  /**
   * The states of one level of the walk, in its order: from memory, without a call to the disk or
   * a promise each, where the caught-up watcher vouches for the folder; else checked (and read if
   * it changed), a batch at a time.
   */
  async #states(look: Look, pending: readonly Pending[]): Promise<(FolderState | undefined)[]> {
    const states: (FolderState | undefined)[] = pending.map((item) => this.#vouched(look, item));
    const asked = pending.flatMap((item, index) => (states[index] === undefined ? [{ item, index }] : []));
    for (let start = 0; start < asked.length; start += batchSize) {
      const batch = asked.slice(start, start + batchSize);
      const checked = await Promise.all(batch.map(({ item }) => this.#state(look, item)));
      batch.forEach(({ index }, at) => {
        states[index] = checked[at];
      });
    }
    return states;
  }

  /** A folder's remembered state where the caught-up watcher vouches for it: covered, checked under its epoch, no change reported. */
  #vouched(look: Look, item: Pending): FolderState | undefined {
    const { watch } = look;
    if (watch === undefined || !item.isCovered || !look.isTrusted) return undefined;
    const known = look.folders.get(item.folder);
    if (known === undefined || known.epoch !== watch.epoch || isChangedIn(look, item)) return undefined;
    return known;
  }

  /** A folder's state the watcher does not vouch for: checked against the disk (and read if it changed). */
  async #state(look: Look, item: Pending): Promise<FolderState | undefined> {
    const { watch } = look;
    if (watch === undefined || !item.isCovered) return this.#current(look.folders, item.folder, undefined, false);
    // Reported changed: read again whatever its times say (a file's links change no folder time).
    return this.#current(look.folders, item.folder, watch.epoch, isChangedIn(look, item));
  }

  /** A folder's state: the remembered one while its times are unchanged (and nothing says otherwise), else read now. */
  async #current(
    folders: Map<string, FolderState>,
    folder: string,
    epoch: number | undefined,
    mustRead: boolean,
  ): Promise<FolderState | undefined> {
    const nowMs = this.#now();
    this.#checks += 1;
    const stat = await lstat(folder).catch(() => undefined);
    if (stat === undefined || !stat.isDirectory()) {
      folders.delete(folder);
      return undefined;
    }
    const known = folders.get(folder);
    if (
      !mustRead &&
      known !== undefined &&
      !known.isRacy &&
      known.mtimeMs === stat.mtimeMs &&
      known.ctimeMs === stat.ctimeMs
    ) {
      known.epoch = epoch;
      return known;
    }
    this.#reads += 1;
    const state: FolderState = { ...(await readFolder(folder, stat.mtimeMs, stat.ctimeMs, nowMs)), epoch };
    if (known === undefined || !isSameFolderContent(known, state)) this.#newReads += 1;
    folders.set(folder, state);
    return state;
  }
}
