import path from 'node:path';
import { AppError } from '../../shared/errors';
import { isPathInside, relativeInside } from '../lib';
import type { RootListing, RootScanCache } from './root-scan-cache';
import { distinctLinks, listFolder } from './root-scan';

type Link = RootListing['links'][number];

/**
 * The most mounts spent on hard links in one command: each path kept read-only is one bubblewrap
 * mount, and each folder above it up to its root one more (a pin, so that it cannot be renamed).
 * Bubblewrap's cost grows faster than its mounts (docs/benchmarks.md, "Hard links in a pnpm
 * tree"): 2,000 linked files kept by 100 package folders (102 mounts) added about 0.5 s to a
 * command, by their one `.pnpm` folder about 0.1 s; 200 files one by one (823 mounts) about 5 s.
 * Past it, the files are kept read-only by their folders.
 */
export const maxLinkMounts = 32;

/** How the profile keeps a command's hard links to files it may not write read-only. */
export interface LinkProtection {
  /** Files of the roots whose other names include one the sandbox may not write. */
  readonly files: readonly string[];
  /** What the profile keeps read-only for them: the files, or the folders that hold them when they are many. */
  readonly denyWrite: readonly string[];
  /** Notes for the command's result: each folder kept read-only as a whole, why, and what lifts it. */
  readonly notes: readonly string[];
}

/** What decides which hard links need protecting. */
export interface LinkRequest {
  readonly roots: readonly string[];
  /** Every hard-linked file of the roots. */
  readonly links: readonly Link[];
  /** Writable folders beside the roots (the agents' package cache, the session's temp, `policy.sandbox.writablePaths`). */
  readonly writable: readonly string[];
  /** Paths kept read-only inside the roots: a name there is not one the sandbox may write. */
  readonly denied: readonly string[];
  readonly scans?: RootScanCache;
}

/** Whether `file` is a denied path or lies below one (its folders looked up in `denied`, up to its root). */
function isDenied(file: string, denied: ReadonlySet<string>): boolean {
  for (let folder = file; ; folder = path.dirname(folder)) {
    if (denied.has(folder)) return true;
    if (path.dirname(folder) === folder) return false;
  }
}

/** Adds each name the sandbox may write to its inode's set. */
function addWritableNames(names: Map<string, Set<string>>, links: readonly Link[], denied: ReadonlySet<string>): void {
  for (const link of links) {
    if (isDenied(link.path, denied)) continue;
    let set = names.get(link.key);
    if (set === undefined) names.set(link.key, (set = new Set()));
    set.add(link.path);
  }
}

/**
 * The hard-linked files of the roots that a write would change somewhere the sandbox may not
 * write: those with a name (link) that is neither in a root nor in a writable folder, or that is a
 * protected path. A file whose every other name the command may write anyway gives it nothing new
 * (a package manager's store in its cache, another file of the workspace), so it stays writable.
 * The writable folders are looked through only when a root holds such a candidate.
 */
export async function linkedToProtected(request: LinkRequest): Promise<Link[]> {
  const denied = new Set(request.denied);
  const names = new Map<string, Set<string>>();
  const links = distinctLinks([...request.links]);
  addWritableNames(names, links, denied);
  const isShort = (link: Link): boolean => (names.get(link.key)?.size ?? 0) < link.count;
  if (!links.some(isShort)) return [];
  const places = request.writable.filter((place) => !request.roots.some((root) => isPathInside(place, root)));
  for (const place of places) {
    // A place that holds a root lists it again: each path counts once (the set), so no name is counted twice.
    const listing = await listFolder(place, process.platform, request.scans);
    addWritableNames(names, listing.links, denied);
  }
  return links.filter(isShort);
}

/** A file by its root and the names below it. */
interface Cut {
  readonly root: string;
  readonly parts: readonly string[];
}

/** The file's root and the names below it: by its spelling where the look spelled it from the root (fast), else by `isPathInside`. */
function cutOf(file: string, roots: readonly string[]): Cut {
  const root =
    roots.find((candidate) => file.startsWith(`${candidate}${path.sep}`)) ??
    roots.find((candidate) => isPathInside(file, candidate));
  if (root === undefined) return { root: path.dirname(file), parts: [path.basename(file)] };
  const relative = file.startsWith(`${root}${path.sep}`) ? file.slice(root.length + 1) : relativeInside(root, file);
  return { root, parts: (relative ?? path.basename(file)).split(path.sep) };
}

/** The files cut to their first `depth` names below their root: each distinct path, with how many files it covers. */
function cutTo(files: readonly Cut[], depth: number): Map<string, number> {
  const chosen = new Map<string, number>();
  for (const { root, parts } of files) {
    const kept = [root, ...parts.slice(0, depth)].join(path.sep);
    chosen.set(kept, (chosen.get(kept) ?? 0) + 1);
  }
  return chosen;
}

/** How many distinct folders hold the files at each depth below their roots (index 1: the top-level ones). */
function foldersByDepth(files: readonly Cut[], deepest: number): number[] {
  const levels = Array.from({ length: deepest }, () => new Set<string>());
  for (const { root, parts } of files) {
    let key = root;
    for (let length = 1; length < parts.length; length += 1) {
      key = `${key}\0${parts[length - 1] ?? ''}`;
      levels[length]?.add(key);
    }
  }
  return levels.map((level) => level.size);
}

/**
 * The deepest cut whose mounts fit `maxLinkMounts`: its paths (the files no deeper than it, the
 * folders at it) and a pin for each folder above them.
 */
function fittingDepth(files: readonly Cut[]): number | undefined {
  const deepest = files.reduce((most, file) => Math.max(most, file.parts.length), 0);
  const folders = foldersByDepth(files, deepest);
  for (let depth = deepest; depth >= 1; depth -= 1) {
    const kept = files.filter((file) => file.parts.length <= depth).length + (folders[depth] ?? 0);
    const pins = folders.slice(1, depth).reduce((sum, count) => sum + count, 0);
    if (kept + pins <= maxLinkMounts) return depth;
  }
  return undefined;
}

function tooMany(files: readonly string[], roots: readonly string[]): AppError {
  const examples = files.slice(0, 3).join(', ');
  return new AppError(
    'conflict',
    `The sandbox for this command could not be built: ${files.length} files in ${roots.join(', ')} are hard links to files the sandbox may not write (for example ${examples}), spread over so many top-level folders that keeping them read-only would take more than ${maxLinkMounts} sandbox mounts, and each must stay read-only so that a command cannot change the file outside. The command was not run. Replace the links with copies (for pnpm: \`pnpm install --config.package-import-method=copy\`, or remove node_modules and let the agent install, which copies), or add the folder the links point to to policy.sandbox.writablePaths in config.json if agents may write it.`,
    { files: files.length },
  );
}

function folderNote(folder: string, count: number): string {
  return `Vigil kept ${folder} read-only as a whole: it holds ${count} files hard-linked to files outside the workspace that the sandbox may not write (such as a package manager's store), too many to protect one by one. Writes there fail with "Read-only file system". To let agents write it, replace the links with copies (for pnpm: \`pnpm install --config.package-import-method=copy\`), or add the folder the links point to to policy.sandbox.writablePaths in config.json if agents may write it.`;
}

/**
 * What the profile keeps read-only for `files`: each file while that takes at most `maxLinkMounts`
 * mounts; past that, the deepest folders that hold them within that many (their other files
 * read-only too, each folder named in a note). Rejects with `conflict`, naming the cause and the
 * fix, when even the roots' top-level entries are too many: protection is never dropped.
 */
export function linkMounts(files: readonly string[], roots: readonly string[]): LinkProtection {
  if (files.length === 0) return { files, denyWrite: [], notes: [] };
  const cut = files.map((file) => cutOf(file, roots));
  const depth = fittingDepth(cut);
  if (depth === undefined) throw tooMany(files, roots);
  const chosen = cutTo(cut, depth);
  const isFile = new Set(files);
  const folders = [...chosen].filter(([kept]) => !isFile.has(kept));
  return { files, denyWrite: [...chosen.keys()], notes: folders.map(([folder, count]) => folderNote(folder, count)) };
}
