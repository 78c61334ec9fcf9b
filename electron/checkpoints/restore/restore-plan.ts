import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { AppError, isAppError } from '../../../shared/errors';
import type { restorePlanEntrySchema, restorePlanSchema } from '../../../shared/contract/checkpoints-restore-schemas';
import { readFileIdentity } from '../../files/file-identity';
import { mapLimit } from '../../files/map-limit';
import type { CheckpointEntry, SkippedPath } from '../checkpoint-types';
import { decodeSkippedList } from '../timeline/commit-message';
import { storedPathExclusion } from '../diff/diff-live-tree';
import type { StoreRules } from '../snapshot/store-rules';
import type { PathScope } from '../diff/diff-path-scope';
import { diffTrees, lookupPath, type TreeChange, type TreeReader } from '../diff/diff-tree-changes';
import { emptyTreeOid } from '../store/git-objects';
import { absoluteIn, diskEntry, entriesUnder, hasRealFolders, type DiskEntry } from './restore-disk';
import { readDiskVersion } from './restore-file-ops';
import type { WriteLedger } from './restore-write-ledger';

/** One line of a restore plan. */
export type RestorePlanEntry = z.output<typeof restorePlanEntrySchema>;
/** A restore plan. */
export type RestorePlan = z.output<typeof restorePlanSchema>;

/** What a plan is computed from. */
export interface PlanInput {
  /** The checkpointed directory (resolved). */
  readonly dir: string;
  readonly checkpoint: CheckpointEntry;
  readonly scope: PathScope;
  /** The directory now as a snapshot stores it: a live walk (preview) or the pre-rollback snapshot (apply). */
  readonly current: { readonly tree: string | undefined; readonly reader: TreeReader };
  readonly maxFileBytes: number;
  readonly ledger: WriteLedger;
  /** Reads a blob of the store: the checkpoint's complete skip list when its trailers were cut short. */
  readonly readBlob?: (oid: string) => Promise<Uint8Array>;
  /** What a snapshot of the directory stores (default: Vigil's built-in names). */
  readonly rules?: StoreRules;
}

/** Paths checked on disk at once. */
const diskConcurrency = 32;

function rootOf(tree: string): string | undefined {
  return tree === emptyTreeOid ? undefined : tree;
}

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
  return (relativePath.split('/').pop() ?? '').startsWith('.env');
}

/** What the checkpoint recorded as skipped when it was taken. */
interface CheckpointSkips {
  readonly files: ReadonlySet<string>;
  /** Skipped folders, with their trailing `/`. */
  readonly folders: ReadonlySet<string>;
  /** Every path the list names (folders with their `/`), with the reason it was skipped. */
  readonly reasons: ReadonlyMap<string, SkippedPath['reason']>;
  /** False when the list was cut short and the complete one cannot be read: any path may have been skipped. */
  readonly isComplete: boolean;
}

/** The checkpoint's skips: its trailers, or the complete list from its blob when the trailers were cut short. */
async function checkpointSkips(input: PlanInput): Promise<CheckpointSkips> {
  let list: readonly SkippedPath[] = input.checkpoint.skipped;
  let isComplete = !list.some((item) => item.reason === 'more');
  const { skippedList } = input.checkpoint;
  if (!isComplete && skippedList !== undefined && input.readBlob !== undefined) {
    const full = await input.readBlob(skippedList).then(decodeSkippedList, (error: unknown) => {
      if (isAppError(error)) return undefined;
      throw error;
    });
    if (full !== undefined) {
      list = full;
      isComplete = true;
    }
  }
  const files = new Set<string>();
  const folders = new Set<string>();
  const reasons = new Map<string, SkippedPath['reason']>();
  for (const item of list) {
    if (item.reason === 'more') continue;
    (item.path.endsWith('/') ? folders : files).add(item.path);
    reasons.set(item.path, item.reason);
  }
  return { files, folders, reasons, isComplete };
}

/** Whether the checkpoint recorded `relativePath` (or a folder holding it) as skipped when it was taken. */
function wasSkippedByCheckpoint(skips: CheckpointSkips, relativePath: string): boolean {
  return skips.files.has(relativePath) || ancestorsOf(relativePath).some((folder) => skips.folders.has(`${folder}/`));
}

/** The reason the checkpoint skipped `relativePath` or the folder holding it. */
function skippedReason(skips: CheckpointSkips, relativePath: string): SkippedPath['reason'] {
  const folder = ancestorsOf(relativePath).find((item) => skips.folders.has(`${item}/`));
  return skips.reasons.get(folder === undefined ? relativePath : `${folder}/`) ?? 'more';
}

/** Whether a file the checkpoint does not hold may be deleted: only when the checkpoint surely did not skip it. */
function isDeletable(skips: CheckpointSkips, relativePath: string): boolean {
  return skips.isComplete && !wasSkippedByCheckpoint(skips, relativePath);
}

/** The ancestors of a path, outermost first (`a/b/c` → `a`, `a/b`). */
function ancestorsOf(relativePath: string): string[] {
  const parts = relativePath.split('/');
  return parts.slice(0, -1).map((_part, index) => parts.slice(0, index + 1).join('/'));
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
    let pending = folders.get(ancestor);
    if (pending === undefined) {
      pending = diskEntry(input.dir, ancestor);
      folders.set(ancestor, pending);
    }
    const entry = await pending;
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
  const found = await readDiskVersion(absoluteIn(input.dir, change.path));
  if (found.identity === undefined) return 'recreate';
  if (found.file !== undefined && found.file.oid === change.old?.oid && found.file.mode === change.old.mode)
    return undefined;
  // A secrets file the restore point keeps only when the restore will write it (the user confirms): its plan line is the same either way.
  if (isSecretPath(change.path) && found.file !== undefined) return act({ ...change, new: found.file }, 'restore');
  return notUndoable(
    { ...change, ...(found.file && { new: found.file }) },
    Number(found.identity.size) > input.maxFileBytes,
  );
}

/** The plan line of one changed file; undefined when the file matches after all (see `heldButExcluded`). */
async function entryFor(
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

/** Why a checkpoint left a path out, in words. */
const skipWords: Readonly<Record<SkippedPath['reason'], string>> = {
  excluded: 'the exclusion rules leave it out',
  vcs: 'it is a version-control folder',
  oversize: 'it was larger than the size cap',
  special: 'it was not a regular file',
  unreadable: 'it could not be read',
  'bad-name': 'its name could not be stored',
  more: 'it was skipped',
};

/** The plan line of a path the checkpoint left out and that is gone now: nothing can bring it back. */
function lostEntry(item: string, reason: SkippedPath['reason']): RestorePlanEntry {
  return {
    path: item,
    action: 'skip',
    reason: 'lost',
    isChangedOutsideAgents: false,
    note: `The checkpoint did not store it (${skipWords[reason]}) and it is gone now, so no restore can bring it back.`,
  };
}

/**
 * The paths in scope the checkpoint left out (its skip list) that are gone from disk now: the
 * restore cannot bring them back, and says so (a deleted `.env`, a database, a file over the cap).
 */
async function lostEntries(input: PlanInput, skips: CheckpointSkips): Promise<RestorePlanEntry[]> {
  const items = [...skips.reasons].filter(([item]) => input.scope.covers(item.replace(/\/$/, '')));
  const lost = await mapLimit(items, diskConcurrency, async ([item, reason]) =>
    (await diskEntry(input.dir, item.replace(/\/$/, ''))).kind === 'missing' ? lostEntry(item, reason) : undefined,
  );
  return lost.filter((entry): entry is RestorePlanEntry => entry !== undefined);
}

/** Entries for paths named one by one that did not change: `unchanged`, an on-disk skip, or not found. */
async function namedEntries(
  input: PlanInput,
  checkpointRoot: string | undefined,
  changed: ReadonlySet<string>,
  skips: CheckpointSkips,
): Promise<RestorePlanEntry[]> {
  const entries: RestorePlanEntry[] = [];
  const missing: string[] = [];
  for (const named of input.scope.paths) {
    if (changed.has(named) || changed.has(`${named}/`)) continue;
    const [inCheckpoint, inCurrent] = await Promise.all([
      lookupPath(input.current.reader, checkpointRoot, named),
      lookupPath(input.current.reader, input.current.tree, named),
    ]);
    if (inCheckpoint?.type === 'tree' || inCurrent?.type === 'tree') continue;
    if (inCheckpoint?.type === 'blob') {
      entries.push({
        path: named,
        action: 'skip',
        reason: 'unchanged',
        checkpoint: { mode: inCheckpoint.mode, oid: inCheckpoint.oid },
        current: { mode: inCheckpoint.mode, oid: inCheckpoint.oid },
        isChangedOutsideAgents: false,
        note: 'It already matches the checkpoint.',
      });
      continue;
    }
    const onDisk = await diskEntry(input.dir, named);
    if (onDisk.kind === 'missing') {
      if (wasSkippedByCheckpoint(skips, named)) entries.push(lostEntry(named, skippedReason(skips, named)));
      else missing.push(named);
      continue;
    }
    const excluded = storedPathExclusion(named, onDisk.kind === 'folder', input.rules);
    const reason =
      excluded !== undefined
        ? 'excluded'
        : onDisk.kind === 'file' && onDisk.size > input.maxFileBytes
          ? 'oversize'
          : 'unprotected';
    entries.push({
      path: named,
      action: 'skip',
      reason,
      isChangedOutsideAgents: false,
      note: 'No snapshot holds it, so the restore never touches it.',
    });
  }
  if (missing.length > 0) {
    throw new AppError(
      'not_found',
      `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} neither in checkpoint ${input.checkpoint.id.slice(0, 8)} nor in ${input.dir} now. Check the spelling against "vigil checkpoints diff".`,
      { paths: missing },
    );
  }
  return entries;
}

/** The fingerprint of what a plan saw: the checkpoint, the scope, and each line's action and versions. */
export function planFingerprint(
  checkpointId: string,
  paths: readonly string[],
  entries: readonly RestorePlanEntry[],
): string {
  const hash = createHash('sha256').update(`${checkpointId}\n${paths.join('\0')}\n`);
  for (const entry of entries) {
    hash.update(
      `${entry.path}\0${entry.action}\0${entry.reason ?? ''}\0${entry.checkpoint?.mode ?? ''}:${entry.checkpoint?.oid ?? ''}\0${entry.current?.mode ?? ''}:${entry.current?.oid ?? ''}\n`,
    );
  }
  return hash.digest('hex');
}

/**
 * Plans a restore: compares the checkpoint with the directory as a snapshot holds it now, then
 * decides per file — `restore` (differs), `recreate` (missing), `delete` (created since; the
 * current snapshot holds it, so undo brings it back), or `skip` with the reason (excluded,
 * oversize, unprotected, not stored by the checkpoint, blocked, unchanged). Files whose current
 * version no Vigil actor made are flagged as changed outside Vigil; the others name who made it
 * (the write ledger's actor). Nothing on disk is changed.
 */
export async function planRestore(input: PlanInput): Promise<RestorePlan> {
  const checkpointRoot = rootOf(input.checkpoint.tree);
  const changes = await diffTrees(input.current.reader, checkpointRoot, input.current.tree, input.scope);
  const skips = await checkpointSkips(input);
  const deletions = new Set(
    changes
      .filter((change) => change.old === undefined && isDeletable(skips, change.path))
      .map((change) => change.path),
  );
  // Folders on the way of many re-created files are looked at once.
  const folders = new Map<string, Promise<DiskEntry>>();
  const ledger = await input.ledger.view();
  const planned = await mapLimit(changes, diskConcurrency, async (change) => {
    const entry = await entryFor(input, skips, change, deletions, folders);
    if (entry === undefined || entry.action === 'skip') return entry;
    const absolute = absoluteIn(input.dir, change.path);
    // A file to re-create was just found missing; the others are judged by the version on disk.
    const identity = entry.action === 'recreate' ? undefined : await readFileIdentity(absolute);
    const written = ledger(absolute, identity);
    return written === undefined
      ? { ...entry, isChangedOutsideAgents: true }
      : { ...entry, changedBy: written.actor, changedAt: new Date(written.at).toISOString() };
  });
  const lost = await lostEntries(input, skips);
  const changed = [...planned.filter((entry): entry is RestorePlanEntry => entry !== undefined), ...lost];
  const named =
    input.scope.paths.length === 0
      ? []
      : await namedEntries(input, checkpointRoot, new Set(changed.map((entry) => entry.path)), skips);
  const entries = [...changed, ...named].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const counts = { restore: 0, recreate: 0, delete: 0, skip: 0 };
  for (const entry of entries) counts[entry.action] += 1;
  return {
    dir: input.dir,
    checkpoint: {
      id: input.checkpoint.id,
      reason: input.checkpoint.reason,
      time: input.checkpoint.time,
      ...(input.checkpoint.dropped === undefined ? {} : { dropped: input.checkpoint.dropped }),
    },
    paths: [...input.scope.paths],
    entries,
    counts,
    changedOutsideAgents: entries.filter((entry) => entry.isChangedOutsideAgents).length,
    fingerprint: planFingerprint(input.checkpoint.id, input.scope.paths, entries),
  };
}
