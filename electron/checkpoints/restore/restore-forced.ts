import type { CheckpointApi } from '../checkpoint-api';
import type { CheckpointEntry } from '../checkpoint-types';
import {
  absoluteIn,
  diffTrees,
  hasRealFolders,
  lookupPath,
  overlayReader,
  readDiskVersion,
  readLiveTree,
  storedPathExclusion,
  type KnownHashes,
  readLiveSideNow,
  type LiveRulesOf,
  type LiveSideRules,
  type LiveTree,
  type PathScope,
  type TreeChange,
  type TreeReader,
} from '../compare';
import { emptyTreeOid, fileModes } from '../../git-store';
import type { FileIdentity } from '../../files';
import type { StoreRules } from '../snapshot/store-rules';
import { isSecretPath } from './restore-plan-entry';
import { planRestore, type RestorePlan } from './restore-plan';
import type { WriteLedger } from './restore-write-ledger';

/** What decides the files a restore point must hold beyond the rules. */
export interface ForcedInput {
  readonly engine: Pick<CheckpointApi, 'list' | 'resolve'>;
  readonly reader: TreeReader;
  readonly checkpoint: CheckpointEntry;
  readonly scope: PathScope;
  readonly rules: StoreRules;
  /** Secrets files (`.env*`) count only when the restore will write them (the user confirmed, or named them). */
  readonly isSecretWritten: (relativePath: string) => boolean;
  /** Who wrote each file's version on disk: an undo deletes only what the undone restore wrote and nobody touched since. */
  readonly ledger: Pick<WriteLedger, 'view'>;
}

function rootOf(tree: string): string | undefined {
  return tree === emptyTreeOid ? undefined : tree;
}

/** Exclusions that never make a file forced: version-control paths and bad names are never written back. */
function isForcedExclusion(relativePath: string, rules: StoreRules): boolean {
  const reason = storedPathExclusion(relativePath, false, rules);
  return reason !== undefined && reason !== 'vcs' && reason !== 'bad-name';
}

/**
 * Whether a restore of named paths can force nothing, without the timeline: every named path is a
 * file (or nothing) in the checkpoint that the rules store. Only a named path, or a path below a named
 * folder, that the checkpoint holds can be forced (`forcedPaths`' filter), so this answer is exact;
 * a named folder, or a file the rules leave out, is left to the comparison with the base.
 */
async function isNothingForced(input: ForcedInput, root: string): Promise<boolean> {
  const { paths } = input.scope;
  if (paths.length === 0) return false;
  const entries = await Promise.all(paths.map((relativePath) => lookupPath(input.reader, root, relativePath)));
  return entries.every(
    (entry, index) =>
      entry === undefined ||
      (entry.type !== 'tree' &&
        (entry.mode === fileModes.gitlink || !isForcedExclusion(paths[index] ?? '', input.rules))),
  );
}

/**
 * The files (relative) a restore of the checkpoint may write whose current version the store
 * rules leave out: another program's store (Hermes's) keeps `.envrc`, media, databases; a
 * checkpoint taken under other rules may too. The restore point stores them whatever the rules
 * say (design.md §4), so that the restore can be undone. Found by comparing the checkpoint with
 * the directory's newest Vigil checkpoint that is not a restore point (its cost grows with the
 * difference, not the tree): such a checkpoint holds no file the rules leave out, unless the rules
 * changed since (then a file held by both is not found, and the plan says it cannot be undone). Version-control paths and gitlinks never
 * count, nor secrets the restore will not write.
 */
export async function forcedPaths(input: ForcedInput): Promise<string[]> {
  const root = rootOf(input.checkpoint.tree);
  const undone = await writtenByUndoneRestore(input, root);
  if (root === undefined || (await isNothingForced(input, root))) return undone;
  // A restore point holds files beyond the rules: the base is the newest checkpoint that is not one.
  const newest = await input.engine.list(input.checkpoint.dir, { limit: 20, source: 'vigil' }).catch(() => []);
  const plain = newest.find((entry) => entry.kind !== 'pre-rollback');
  const base = plain === undefined ? undefined : rootOf(plain.tree);
  const changes = await diffTrees(input.reader, root, base, input.scope);
  const held = changes
    .filter((change) => change.old !== undefined && change.old.mode !== fileModes.gitlink)
    .map((change) => change.path)
    .filter((relativePath) => isForcedFile(input, relativePath));
  return [...new Set([...held, ...undone])];
}

/** Whether a file the rules leave out counts as forced (secrets only when the restore writes them). */
function isForcedFile(input: ForcedInput, relativePath: string): boolean {
  return (
    isForcedExclusion(relativePath, input.rules) && (!isSecretPath(relativePath) || input.isSecretWritten(relativePath))
  );
}

/**
 * Undoing a restore (restoring its restore point): the files that restore brought back although
 * the rules leave them out, that is, the files its checkpoint holds and its restore point does not
 * (they were missing before it, or the point, which holds every such file present, would have
 * them), that are on disk as that checkpoint holds them, and that are still the very files the
 * restore wrote (the write ledger holds their identity, inode and times, under its restore point).
 * The undo deletes them only if its own restore point holds them, so they are forced too; without
 * them, an undo left behind an ignored file the restore had written. Any other file is left: one in
 * another version, one the restore did not write (a restore of chosen files writes no other file),
 * or one made or written since, even with the same bytes (the undo could not tell it from the
 * restore's by its content alone, and deleted it).
 */
async function writtenByUndoneRestore(input: ForcedInput, root: string | undefined): Promise<string[]> {
  const { checkpoint } = input;
  if (checkpoint.kind !== 'pre-rollback' || checkpoint.restores === undefined) return [];
  const restored = await input.engine.resolve(checkpoint.dir, checkpoint.restores).catch(() => undefined);
  const restoredRoot = restored === undefined ? undefined : rootOf(restored.tree);
  if (restoredRoot === undefined) return [];
  const changes = await diffTrees(input.reader, root, restoredRoot, input.scope);
  const candidates = changes.filter(
    (change) =>
      change.old === undefined &&
      change.new !== undefined &&
      change.new.mode !== fileModes.gitlink &&
      isForcedFile(input, change.path),
  );
  if (candidates.length === 0) return [];
  const writer = await input.ledger.view();
  const isWritten = await Promise.all(
    candidates.map(async (change) => {
      const absolute = absoluteIn(checkpoint.dir, change.path);
      const found = await onDiskAs(checkpoint.dir, change);
      return found !== undefined && writer(absolute, found)?.restorePoint === checkpoint.id;
    }),
  );
  return candidates.filter((_, index) => isWritten[index]).map((change) => change.path);
}

/** The identity of the file of `change` when it is on disk, through real folders only, as the version `change.new`. */
async function onDiskAs(dir: string, change: TreeChange): Promise<FileIdentity | undefined> {
  if (change.new === undefined || !(await hasRealFolders(dir, change.path))) return undefined;
  const found = await readDiskVersion(absoluteIn(dir, change.path), undefined, { within: dir }).catch(() => undefined);
  return found?.file?.oid === change.new.oid && found.file.mode === change.new.mode ? found.identity : undefined;
}

/** What a restore's preview needs. */
export interface PreviewInput {
  readonly engine: Pick<CheckpointApi, 'list' | 'readBlob' | 'resolve'>;
  readonly store: TreeReader;
  readonly checkpoint: CheckpointEntry;
  readonly scope: PathScope;
  /** The rules of the live side, rebuilt with the repositories a look at the folder found (see `storeRules`). */
  readonly rulesFor: LiveRulesOf;
  readonly known: KnownHashes;
  readonly ledger: WriteLedger;
}

/**
 * The plan of a restore as it would run now, against the directory's live tree judged as the
 * restore point will be: the files it would hold beyond the rules count (secrets too: here they
 * are only hashed, never stored), so that the plan applied later has the same fingerprint. The
 * restore point's walk rebuilds the rules when it meets other repositories than they know (a clone
 * made since the last checkpoint): the preview judges by the repositories on disk now too, those its
 * walk met, or for chosen paths those on the way to them, so both judge alike.
 */
export async function previewPlan(input: PreviewInput): Promise<RestorePlan> {
  const { checkpoint, scope } = input;
  const { live, rules } = await readLiveSideNow(input.rulesFor, checkpoint.dir, scope, (by) => liveSide(input, by));
  return planRestore({
    dir: checkpoint.dir,
    checkpoint,
    scope,
    current: { tree: live.root, reader: overlayReader(live, input.store) },
    maxFileBytes: rules.maxFileBytes,
    ledger: input.ledger,
    readBlob: (oid) => input.engine.readBlob(oid),
    rules: rules.storeRules,
  });
}

/** The live side as the restore point would store it now, by `rules` (the files forced beyond them count). */
async function liveSide(input: PreviewInput, rules: LiveSideRules): Promise<LiveTree> {
  const { checkpoint, scope } = input;
  const forced = await forcedPaths({
    engine: input.engine,
    reader: input.store,
    checkpoint,
    scope,
    rules: rules.storeRules,
    isSecretWritten: () => true,
    ledger: input.ledger,
  });
  return readLiveTree(checkpoint.dir, { ...rules, forced: new Set(forced) }, scope, input.known);
}
