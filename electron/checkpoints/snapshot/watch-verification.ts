import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { DirState, FolderView } from './dir-state';
import type { StoreRules } from './store-rules';
import { classifyEntry, folderPath, listedStat, type ListedStat } from './folder-listing';
import type { TrackedDirectory } from './tracked-directory';

/** The rules a walk applies (the snapshot's own). */
export interface VerificationRules {
  readonly maxFileBytes: number;
  readonly ignoredFolders: readonly string[];
  /** What the directory's snapshots store (tracked files, ignore rules, built-in names). */
  readonly store: StoreRules;
}

/** What one verification walk found. */
export type VerificationOutcome =
  | { readonly kind: 'skipped'; readonly reason: string }
  | { readonly kind: 'inconclusive'; readonly reason: string }
  | { readonly kind: 'verified'; readonly entries: number; readonly missed: readonly string[] };

/** How the state records a name of a folder (read through `DirState.peek`: a compact folder stays compact). */
function recordedKind(folder: FolderView | undefined, name: string): 'file' | 'folder' | 'skip' | undefined {
  if (folder === undefined) return undefined;
  if (folder.files.has(name)) return 'file';
  if (folder.dirs.has(name)) return 'folder';
  return folder.skipped.has(name) || folder.skipped.has(`${name}/`) ? 'skip' : undefined;
}

/** Whether a file's lstat is what its record says (a smudged ctime, -1, is compared without its ctime). */
function matchesRecord(folder: FolderView | undefined, name: string, stat: ListedStat): boolean {
  const record = folder?.files.get(name);
  return (
    record !== undefined &&
    record.mode === stat.mode &&
    record.size === stat.size &&
    record.mtimeNs === stat.mtimeNs &&
    (record.ctimeNs === -1n || record.ctimeNs === stat.ctimeNs) &&
    record.ino === stat.ino
  );
}

/** Compares one folder and everything below it with the state, read-only; adds to `differing` every path that differs. */
async function compareFolder(
  root: string,
  state: DirState,
  rules: VerificationRules,
  rel: string,
  found: { entries: number; readonly differing: string[] },
): Promise<void> {
  const absolute = folderPath(root, rel);
  let dirents: Dirent[];
  try {
    dirents = await readdir(absolute, { withFileTypes: true });
  } catch {
    if (
      rel !== '' &&
      recordedKind(state.peek(path.posix.dirname(rel).replace(/^\.$/, '')), path.posix.basename(rel)) !== 'skip'
    )
      found.differing.push(rel);
    return;
  }
  const child = (name: string): string => (rel === '' ? name : `${rel}/${name}`);
  const folder = state.peek(rel);
  const seen = new Set<string>();
  const folders: string[] = [];
  for (const dirent of dirents) {
    const entry = classifyEntry(
      dirent.name,
      dirent,
      path.join(absolute, dirent.name),
      rules.ignoredFolders,
      rules.store,
      rel,
    );
    if (entry.kind === 'omit') continue;
    seen.add(dirent.name);
    found.entries += 1;
    const recorded = recordedKind(folder, dirent.name);
    if (entry.kind === 'skip') {
      if (recorded !== 'skip') found.differing.push(child(dirent.name));
    } else if (entry.kind === 'folder') {
      if (recorded === 'folder') folders.push(child(dirent.name));
      else found.differing.push(child(dirent.name));
    } else {
      const stats = await lstat(path.join(absolute, dirent.name), { bigint: true }).catch(() => undefined);
      const stat = stats === undefined ? undefined : listedStat(stats);
      const isStored = stat !== undefined && (stat.isSymlink || (stat.isFile && stat.size <= rules.maxFileBytes));
      const isSame = isStored ? matchesRecord(folder, dirent.name, stat) : recorded === 'skip';
      if (!isSame) found.differing.push(child(dirent.name));
    }
  }
  for (const name of state.names(rel)) if (!seen.has(name)) found.differing.push(child(name));
  if (found.entries % 512 < dirents.length) await yieldToLoop();
  for (const folder of folders) await compareFolder(root, state, rules, folder, found);
}

/** Whether the next snapshot walks the whole tree anyway (asked again after each await: an overflow may set it meanwhile). */
function isWalkPending(tracked: TrackedDirectory): boolean {
  return tracked.needsFullScan;
}

/** Whether a path's change is already known: it, or a folder above it, waits in the dirty set. */
function isKnown(tracked: TrackedDirectory, rel: string): boolean {
  const parts = rel.split('/');
  for (let length = parts.length; length > 0; length -= 1) {
    const prefix = parts.slice(0, length).join('/');
    if (tracked.dirty.has(prefix) || tracked.walkedPaths.has(prefix)) return true;
  }
  return false;
}

/**
 * The background check that the watcher is only a hint: walks the directory (stat only, nothing
 * hashed) and compares it with the state the next watched checkpoint would start from. A path
 * that differs must be in the dirty set once the watcher has caught up (`catchUp`, a sync cookie)
 * with every change made before it was looked at; one that is not was missed by the watcher: a
 * defect. It is repaired (put in the dirty set, so the next checkpoint looks at it) and returned.
 * A snapshot taken meanwhile makes the comparison inconclusive (it took the dirty set).
 */
export async function verifyWatchedState(
  tracked: TrackedDirectory,
  rules: VerificationRules,
  catchUp: () => Promise<boolean>,
): Promise<VerificationOutcome> {
  const { state } = tracked;
  if (!tracked.isWatched) return { kind: 'skipped', reason: 'the directory is not watched' };
  if (state === undefined || isWalkPending(tracked))
    return { kind: 'skipped', reason: 'the next checkpoint walks the whole tree anyway' };
  const generation = tracked.generation;
  const found = { entries: 0, differing: [] as string[] };
  await compareFolder(tracked.dir, state, rules, '', found);
  const isCaughtUp = await catchUp();
  if (!isCaughtUp) return { kind: 'inconclusive', reason: 'the watcher did not catch up' };
  if (tracked.generation !== generation || tracked.state !== state)
    return { kind: 'inconclusive', reason: 'a checkpoint was taken during the walk' };
  tracked.verifiedAt = new Date().toISOString();
  if (isWalkPending(tracked)) return { kind: 'verified', entries: found.entries, missed: [] };
  const missed = found.differing.filter((rel) => !isKnown(tracked, rel));
  for (const rel of missed) tracked.dirty.add(rel);
  tracked.defects += missed.length;
  return { kind: 'verified', entries: found.entries, missed };
}
