import {
  absoluteIn,
  diskEntry,
  entriesUnder,
  hasRealFolders,
  readDiskVersion,
  storedPathExclusion,
  type DiskEntry,
  type TreeChange,
} from '../compare';
import { isSecretsFilePath } from '../../../shared/contract/restore-outcomes';
import { linkedFolderOnTheWay, linkedFolderTarget, type LinkedFolder } from '../../files';
import type { PlanInput, RestorePlanEntry } from './restore-plan-types';
import { ancestorsOf, wasSkippedByCheckpoint, type CheckpointSkips } from './restore-plan-skips';

function skip(change: TreeChange, reason: NonNullable<RestorePlanEntry['reason']>, note: string): RestorePlanEntry {
  return {
    path: change.path,
    action: 'skip',
    reason,
    ...(change.old && { checkpoint: change.old }),
    ...(change.new && { current: change.new }),
    isChangedOutsideAgents: false,
    note,
  };
}

function act(change: TreeChange, action: 'restore' | 'recreate' | 'delete'): RestorePlanEntry {
  // A secret (`.env*`) is written only when the caller says so: only another program's store (Hermes's) holds one.
  const isSecret = action !== 'delete' && isSecretPath(change.path);
  return {
    path: change.path,
    action,
    ...(change.old && { checkpoint: change.old }),
    ...(change.new && { current: change.new }),
    isChangedOutsideAgents: false,
    ...(isSecret && { isSecret }),
  };
}

/** Whether a path names a secrets file (`.env*`), which Vigil's own snapshots never store. */
export function isSecretPath(relativePath: string): boolean {
  return isSecretsFilePath(relativePath);
}

/**
 * Why a file missing from the current tree cannot be written back, or undefined when it can. What
 * is on disk is looked at one level at a time and never through a symlink: a file or symlink in
 * the way that the plan deletes leaves the path below it free.
 */
async function recreateBlocker(
  input: PlanInput,
  change: TreeChange,
  deletions: ReadonlySet<string>,
  folders: Map<string, Promise<DiskEntry>>,
): Promise<RestorePlanEntry | undefined> {
  for (const ancestor of ancestorsOf(change.path)) {
    const entry = await folderEntry(input, ancestor, folders);
    if (entry.kind === 'missing') return undefined;
    if (entry.kind === 'folder') continue;
    if (deletions.has(ancestor)) return undefined;
    return skip(
      change,
      'blocked',
      `${ancestor} is a ${entry.kind} now, not a folder; include ${ancestor} in the restore to replace it.`,
    );
  }
  const here = await diskEntry(input.dir, change.path);
  if (here.kind === 'missing') return undefined;
  if (here.kind === 'folder') {
    const inside = await entriesUnder(input.dir, change.path);
    const kept = inside.filter((item) => !deletions.has(item));
    if (kept.length === 0) return undefined;
    return skip(
      change,
      'blocked',
      `A folder is here now holding ${kept.length} file(s) the restore will not delete (such as ${kept[0] ?? ''}); move them to restore this file.`,
    );
  }
  if (here.kind === 'file' && here.size > input.maxFileBytes) {
    return skip(
      change,
      'oversize',
      'A file larger than the size cap is here now; no snapshot can hold it, so it is never overwritten.',
    );
  }
  return skip(
    change,
    'unprotected',
    'Something is here that no snapshot holds (unreadable, special or badly named), so it is never overwritten.',
  );
}

/** What is at a folder on the way (relative), looked at once per plan. */
function folderEntry(input: PlanInput, folder: string, folders: Map<string, Promise<DiskEntry>>): Promise<DiskEntry> {
  let pending = folders.get(folder);
  if (pending === undefined) {
    pending = diskEntry(input.dir, folder);
    folders.set(folder, pending);
  }
  return pending;
}

/** The plan line of a file whose folder on the way is a symbolic link now: left as it is, with that reason. */
export function behindLinkedFolder(change: TreeChange, linked: LinkedFolder): RestorePlanEntry {
  return skip(
    change,
    'blocked',
    `${linked.relativePath} is a symbolic link to ${linkedFolderTarget(linked)} now; Vigil neither reads nor writes through it (a checkpoint stores the link itself), so this file is left as it is. Plan the restore again: the link then shows as a change of its own.`,
  );
}

/**
 * The plan line of a file to restore or delete when a folder on its way is a symlink now (swapped in
 * after the current tree was read), else undefined. Folders are looked at once per plan (`folders`).
 */
export async function linkedFolderEntry(
  input: PlanInput,
  change: TreeChange,
  folders: Map<string, Promise<DiskEntry>>,
): Promise<RestorePlanEntry | undefined> {
  for (const ancestor of ancestorsOf(change.path)) {
    const entry = await folderEntry(input, ancestor, folders);
    if (entry.kind === 'folder') continue;
    if (entry.kind !== 'symlink') return undefined;
    const linked = await linkedFolderOnTheWay(absoluteIn(input.dir, change.path), input.dir);
    return linked === undefined ? undefined : behindLinkedFolder(change, linked);
  }
  return undefined;
}

/** Why overwriting a file the restore point could not keep (over the size cap, unreadable) could not be undone. */
function notUndoable(change: TreeChange, isOversize: boolean): RestorePlanEntry {
  return skip(
    change,
    isOversize ? 'oversize' : 'unprotected',
    `The checkpoint holds it, but the restore point could not keep its current version (${isOversize ? 'it is larger than the size cap' : 'it could not be read'}), so overwriting it could not be undone. Move it away (or delete it), then restore again.`,
  );
}

/**
 * A file the checkpoint holds that Vigil's snapshots leave out (another program's store holds
 * such files: Hermes's keeps media, databases, build output): it is not in the current tree, so
 * what is on disk decides. Missing: re-create it. The same version: nothing to do (undefined).
 * Another version: the restore point could not keep it, so it is left as it is, with the reason.
 */
async function heldButExcluded(
  input: PlanInput,
  change: TreeChange,
): Promise<RestorePlanEntry | 'recreate' | undefined> {
  // Never judged through a symlink or a file on the way: the re-create path decides what is in the way.
  if (!(await hasRealFolders(input.dir, change.path))) return 'recreate';
  const found = await readDiskVersion(absoluteIn(input.dir, change.path), undefined, { within: input.dir });
  if (found.identity === undefined) return 'recreate';
  if (found.file === undefined) {
    // A folder in the way: the re-create path decides whether it can be moved. It used to be judged by its own size
    // against the cap (a 4 KiB folder under a small cap was "oversize", and the file was never written back).
    if ((await diskEntry(input.dir, change.path)).kind === 'folder') return 'recreate';
    return notUndoable(change, false);
  }
  if (found.file.oid === change.old?.oid && found.file.mode === change.old.mode) return undefined;
  // A secrets file the restore point keeps only when the restore will write it (the user confirms): its plan line is the same either way.
  if (isSecretPath(change.path)) return act({ ...change, new: found.file }, 'restore');
  return notUndoable({ ...change, new: found.file }, Number(found.identity.size) > input.maxFileBytes);
}

/** The plan line of one changed file; undefined when the file matches after all (see `heldButExcluded`). */
export async function entryFor(
  input: PlanInput,
  skips: CheckpointSkips,
  change: TreeChange,
  deletions: ReadonlySet<string>,
  folders: Map<string, Promise<DiskEntry>>,
): Promise<RestorePlanEntry | undefined> {
  const isExcluded = storedPathExclusion(change.path, false, input.rules) !== undefined;
  // The current snapshot holds this version (the restore point stores what the restore overwrites, whatever the rules): undoable.
  if (change.old !== undefined && change.new !== undefined) return act(change, 'restore');
  if (change.old === undefined) {
    if (wasSkippedByCheckpoint(skips, change.path)) {
      return skip(
        change,
        'not-in-checkpoint',
        'The checkpoint did not store this file (it was skipped when the checkpoint was taken), so it is left as it is.',
      );
    }
    if (!skips.isComplete) {
      return skip(
        change,
        'not-in-checkpoint',
        'The checkpoint skipped more files than it lists and its complete list is gone, so it may have skipped this one: it is left as it is.',
      );
    }
    return act(change, 'delete');
  }
  if (isExcluded) {
    const held = await heldButExcluded(input, change);
    if (held !== 'recreate') return held;
  }
  return (await recreateBlocker(input, change, deletions, folders)) ?? act(change, 'recreate');
}
