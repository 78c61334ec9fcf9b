import type { BigIntStats } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode, fileSystemError, isVigilBookkeepingFile, isVigilTempFile, mapLimit } from '../../files';
import { hashLiveFile } from './live-file-hash';
import type { SkippedPath, SkipReason, StoredTreeEntry } from '../checkpoint-types';
import type { PathScope } from './diff-path-scope';
import type { TreeReader } from './diff-tree-changes';
import { StoreRules } from '../snapshot/store-rules';
import { noKnownHashes, type KnownHashes } from '../snapshot/known-hashes';
import { encodeTree, fileModes, hashObject } from '../../git-store';

/** The rules a snapshot applies beyond the exclusion list, so the live side is judged exactly as a checkpoint would be. */
export interface LiveTreeRules {
  /** Files larger than this are not stored (`oversize`). */
  readonly maxFileBytes: number;
  /** Absolute folders never entered (Vigil's own data folder when it sits inside the directory). */
  readonly ignoredFolders: readonly string[];
  /** What a snapshot of the directory stores (default: Vigil's built-in names, as outside a repository). */
  readonly storeRules?: StoreRules;
  /** Files stored whatever the rules say (relative): a restore point's files the restore will overwrite. */
  readonly forced?: ReadonlySet<string>;
}

/**
 * The directory as a checkpoint taken now would store it, computed without writing anything: git
 * tree ids for every folder (equal to the store's when the content is equal, so diffs prune
 * unchanged subtrees), and what was left out and why.
 */
export interface LiveTree {
  /** The root tree id; undefined when nothing in scope would be stored. */
  readonly root: string | undefined;
  readonly skipped: readonly SkippedPath[];
  /** The folders' tree objects, by id. */
  readonly trees: ReadonlyMap<string, readonly StoredTreeEntry[]>;
}

/** Files read and hashed at once. */
const hashConcurrency = 32;

/** A file found by the walk, before it is hashed. */
interface FoundFile {
  readonly relativePath: string;
  readonly parent: string;
  readonly name: string;
  /** Its lstat, when the walk looked it up by name (then it is not looked at again). */
  readonly stats?: BigIntStats;
}

/** An entry of a folder as the walk met it: listed, or looked up by name. */
interface FolderEntry {
  readonly name: string;
  readonly isFolder: boolean;
  readonly isFileOrLink: boolean;
  readonly stats?: BigIntStats;
}

/** How `readLiveTree` looks at a directory besides its rules and scope. */
export interface LiveTreeOptions {
  /** Vigil temp files met in the folders listed are told here (absolute paths). */
  readonly onVigilTemp?: (absolute: string) => void;
  /**
   * Folders the scope only passes through on the way to the paths it names are not listed: the
   * entries the scope names in them are looked at one by one (one lstat each, never following the
   * entry itself), as a snapshot's scan of named paths looks at them; their other entries,
   * temp files included, are not seen. Folders the scope covers are listed as usual.
   */
  readonly isNamedLookup?: boolean;
}

/** A name that did not survive decoding (not valid UTF-8), or holds a separator, cannot be stored faithfully. */
export function isBadName(name: string): boolean {
  return name.includes('\uFFFD') || name.includes('/') || name.includes('\\');
}

/**
 * Why a path would not be stored by a snapshot: a badly named part, or the store rules (a folder on
 * the way, or the path itself judged as a folder or a file), or undefined when it would be.
 */
export function storedPathExclusion(
  relativePath: string,
  isFolder: boolean,
  rules: StoreRules = StoreRules.builtIn,
): SkipReason | undefined {
  if (relativePath.split('/').some(isBadName)) return 'bad-name';
  return rules.pathExclusion(relativePath, isFolder);
}

/** The folders on the way to the forced files (relative), which a walk enters even when the rules leave them out. */
function foldersOf(forced: ReadonlySet<string> | undefined): ReadonlySet<string> {
  const folders = new Set<string>();
  for (const file of forced ?? []) {
    const parts = file.split('/');
    for (let index = 1; index < parts.length; index += 1) folders.add(parts.slice(0, index).join('/'));
  }
  return folders;
}

/** How the walk treats one entry: why it is left out, `silent` (inside a folder entered only for forced files), or undefined (kept). */
function entryExclusion(
  rules: LiveTreeRules,
  walk: { readonly forcedFolders: ReadonlySet<string>; readonly forcedOnly: Set<string> },
  folder: string,
  entry: FolderEntry,
  relativePath: string,
): SkipReason | 'silent' | undefined {
  if (isBadName(entry.name)) return 'bad-name';
  const isForced = entry.isFolder ? walk.forcedFolders.has(relativePath) : rules.forced?.has(relativePath) === true;
  if (walk.forcedOnly.has(folder)) {
    if (!isForced) return 'silent';
    if (entry.isFolder) walk.forcedOnly.add(relativePath);
    return undefined;
  }
  const store = rules.storeRules ?? StoreRules.builtIn;
  if (!entry.isFolder && !entry.isFileOrLink) return 'special';
  const reason = entry.isFolder
    ? store.folderExclusion(relativePath, entry.name)
    : store.fileExclusion(relativePath, entry.name);
  if (reason === undefined || !isForced) return reason;
  if (entry.isFolder) walk.forcedOnly.add(relativePath);
  return undefined;
}

function join(parent: string, name: string): string {
  return parent === '' ? name : `${parent}/${name}`;
}

async function listFolder(absolute: string, relativePath: string, skipped: SkippedPath[]): Promise<FolderEntry[]> {
  try {
    return (await readdir(absolute, { withFileTypes: true })).map((entry) => ({
      name: entry.name,
      isFolder: entry.isDirectory(),
      isFileOrLink: entry.isFile() || entry.isSymbolicLink(),
    }));
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    if (code === 'EACCES' || code === 'EPERM') {
      skipped.push({ path: `${relativePath}/`, reason: 'unreadable' });
      return [];
    }
    throw fileSystemError(error, 'list', absolute);
  }
}

/**
 * The entries `names` of a folder, each looked up by name (not followed); undefined when one cannot
 * be looked at (no permission, say): the caller then lists the folder instead, which says why.
 */
async function lookUpNames(absolute: string, names: readonly string[]): Promise<FolderEntry[] | undefined> {
  const looked = await mapLimit(names, hashConcurrency, async (name): Promise<FolderEntry | 'gone' | 'failed'> => {
    try {
      const stats = await lstat(path.join(absolute, name), { bigint: true });
      return { name, isFolder: stats.isDirectory(), isFileOrLink: stats.isFile() || stats.isSymbolicLink(), stats };
    } catch (error) {
      const code = errnoCode(error);
      return code === 'ENOENT' || code === 'ENOTDIR' ? 'gone' : 'failed';
    }
  });
  if (looked.includes('failed')) return undefined;
  return looked.filter((entry): entry is FolderEntry => typeof entry !== 'string');
}

/** What the walk of a scope found: the files to hash, the folders on the way, what it left out. */
interface WalkedScope {
  readonly files: FoundFile[];
  readonly folders: string[];
  readonly skipped: SkippedPath[];
}

/** Walks the folders `scope` reaches, level by level, listing them (or looking up the named entries, see `LiveTreeOptions`). */
async function walkScope(
  dir: string,
  rules: LiveTreeRules,
  scope: PathScope,
  options: LiveTreeOptions,
): Promise<WalkedScope> {
  const walked: WalkedScope = { files: [], folders: [], skipped: [] };
  const forcing = { forcedFolders: foldersOf(rules.forced), forcedOnly: new Set<string>() };
  const entriesIn = async (folder: string): Promise<FolderEntry[]> => {
    const absolute = path.join(dir, folder);
    const names = options.isNamedLookup === true ? scope.namedIn(folder) : undefined;
    const looked = names === undefined ? undefined : await lookUpNames(absolute, [...names]);
    return looked ?? listFolder(absolute, folder, walked.skipped);
  };
  let level = [''];
  while (level.length > 0) {
    const next: string[] = [];
    await mapLimit(level, hashConcurrency, async (folder) => {
      walked.folders.push(folder);
      for (const entry of await entriesIn(folder)) {
        const relativePath = join(folder, entry.name);
        if (isVigilBookkeepingFile(entry.name)) {
          if (options.onVigilTemp !== undefined && isVigilTempFile(entry.name))
            options.onVigilTemp(path.join(dir, relativePath));
          continue;
        }
        const { isFolder } = entry;
        if (isFolder ? !scope.enters(relativePath) : !scope.covers(relativePath)) continue;
        if (isFolder && rules.ignoredFolders.includes(path.join(dir, relativePath))) continue;
        const reason = entryExclusion(rules, forcing, folder, entry, relativePath);
        if (reason === 'silent') continue;
        if (reason !== undefined) walked.skipped.push({ path: isFolder ? `${relativePath}/` : relativePath, reason });
        else if (isFolder) next.push(relativePath);
        else walked.files.push({ relativePath, parent: folder, name: entry.name, stats: entry.stats });
      }
    });
    level = next;
  }
  return walked;
}

/**
 * Walks `dir` (only the parts `scope` reaches) and computes its live tree with the snapshot's rules
 * (see stat-walk.ts): symlinks are stored as links and never followed; Vigil's own temp files and
 * data folder are ignored; excluded, version-control, oversize, special, unreadable and badly
 * named paths are listed in `skipped`. Files whose stat matches the engine's stat cache (`known`)
 * are not read. Vigil temp files met in the folders listed are told to `options.onVigilTemp`
 * (absolute paths), so a caller can sweep a dead writer's leftovers without listing them again.
 */
export async function readLiveTree(
  dir: string,
  rules: LiveTreeRules,
  scope: PathScope,
  known: KnownHashes = noKnownHashes,
  options: LiveTreeOptions = {},
): Promise<LiveTree> {
  const { files, folders, skipped } = await walkScope(dir, rules, scope, options);

  const entriesOf = new Map<string, StoredTreeEntry[]>(folders.map((folder) => [folder, []]));
  // Resolved once for every file's check that it was reached through no symlink (a swapped root only fails that check).
  const realDir = files.length === 0 ? undefined : await realpath(dir).catch(() => undefined);
  await mapLimit(files, hashConcurrency, async (file) => {
    const hashed = await hashLiveFile(dir, file.relativePath, rules.maxFileBytes, known, file.stats, realDir);
    if (hashed === undefined) return;
    if (typeof hashed === 'string') skipped.push({ path: file.relativePath, reason: hashed });
    else entriesOf.get(file.parent)?.push({ mode: hashed.mode, name: file.name, oid: hashed.oid, type: 'blob' });
  });

  // Deepest folders first, so that each folder's subtrees have their ids when it is encoded.
  const trees = new Map<string, readonly StoredTreeEntry[]>();
  const depth = (folder: string): number => (folder === '' ? 0 : folder.split('/').length);
  let root: string | undefined;
  for (const folder of [...folders].sort((a, b) => depth(b) - depth(a))) {
    const entries = entriesOf.get(folder) ?? [];
    if (entries.length === 0) continue;
    const oid = hashObject('tree', encodeTree(entries));
    trees.set(oid, entries);
    if (folder === '') root = oid;
    else
      entriesOf
        .get(path.posix.dirname(folder) === '.' ? '' : path.posix.dirname(folder))
        ?.push({ mode: fileModes.tree, name: path.posix.basename(folder), oid, type: 'tree' });
  }
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { root, skipped, trees };
}

/** A reader that serves a live tree's folders from memory and everything else from the store. */
export function overlayReader(live: LiveTree, store: TreeReader): TreeReader {
  return {
    readTree: (oid) => {
      const entries = live.trees.get(oid);
      return entries === undefined ? store.readTree(oid) : Promise.resolve(entries);
    },
  };
}
