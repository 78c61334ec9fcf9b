import { createHash } from 'node:crypto';
import { AppError } from '../../../shared/errors';
import { mapLimit, readFileIdentity } from '../../files';
import {
  absoluteIn,
  diffTrees,
  diskEntry,
  lookupPath,
  readDiskVersion,
  storedPathExclusion,
  type DiskEntry,
  type DiskVersion,
} from '../compare';
import { emptyTreeOid } from '../../git-store';
import type { PlanInput, RestorePlan, RestorePlanEntry } from './restore-plan-types';
import {
  diskConcurrency,
  checkpointSkips,
  isDeletable,
  lostEntries,
  lostEntry,
  skippedReason,
  wasSkippedByCheckpoint,
  type CheckpointSkips,
} from './restore-plan-skips';
import { behindLinkedFolder, entryFor, linkedFolderEntry } from './restore-plan-entry';

export type { PlanInput, RestorePlan, RestorePlanEntry } from './restore-plan-types';

function rootOf(tree: string): string | undefined {
  return tree === emptyTreeOid ? undefined : tree;
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
 * The identity of the file at `absolute`; with `input.seen`, its whole version, kept for the writes
 * (not when it lies behind a folder that is a symlink now: `linkedFolder` says so, and the plan refuses it).
 */
async function versionOnDisk(
  input: PlanInput,
  relativePath: string,
  absolute: string,
): Promise<Pick<DiskVersion, 'identity' | 'linkedFolder'>> {
  if (input.seen === undefined) return { identity: await readFileIdentity(absolute) };
  const { known, versions } = input.seen;
  const found = await readDiskVersion(
    absolute,
    known === undefined ? undefined : (stats, mode) => known.oidOf(relativePath, stats, mode),
    { within: input.dir },
  );
  if (found.linkedFolder === undefined) versions.set(relativePath, found);
  return found;
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
    // Nothing behind a folder that is a symlink now is read, written or deleted (re-creating: recreateBlocker decides).
    const linked = entry.action === 'recreate' ? undefined : await linkedFolderEntry(input, change, folders);
    if (linked !== undefined) return linked;
    // A file to re-create was just found missing; the others are judged by the version on disk.
    const found = entry.action === 'recreate' ? undefined : await versionOnDisk(input, change.path, absolute);
    if (found?.linkedFolder !== undefined) return behindLinkedFolder(change, found.linkedFolder);
    const identity = found?.identity;
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
