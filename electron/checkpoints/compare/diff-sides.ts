import path from 'node:path';
import { mapLimit } from '../../files';
import type { CheckpointApi } from '../checkpoint-service';
import type { CheckpointEntry } from '../checkpoint-types';
import { noKnownHashes, type KnownHashes } from '../snapshot/known-hashes';
import { readLiveTree, overlayReader, type LiveTree, type LiveTreeRules } from './diff-live-tree';
import { withHeldFileOnDisk } from './held-file-on-disk';
import type { PathScope } from './diff-path-scope';
import { diffTrees, type TreeChange, type TreeFile, type TreeReader } from './diff-tree-changes';
import { emptyTreeOid } from '../../git-store';
import { readLiveContent } from './live-content';
import { readLiveTreeNow, type LiveRulesOf } from './live-rules';

/** What diff and restore need from the checkpoint engine. */
export type DiffEngine = Pick<CheckpointApi, 'resolve' | 'readTree' | 'readBlob'>;

/** The newer side of a diff, as a caller names it. */
export type DiffAgainst = { readonly kind: 'live' } | { readonly kind: 'checkpoint'; readonly ref: string };

/** The two sides of a diff, resolved and compared. */
export interface DiffSides {
  /** The checkpointed directory (resolved). */
  readonly dir: string;
  readonly from: CheckpointEntry;
  readonly to:
    | { readonly kind: 'live'; readonly live: LiveTree }
    | { readonly kind: 'checkpoint'; readonly checkpoint: CheckpointEntry };
  /** Reads trees of both sides. */
  readonly reader: TreeReader;
  /** Every file that differs, within the scope, sorted by path. */
  readonly changes: readonly TreeChange[];
}

/**
 * Whether a path absent from a checkpoint is one the checkpoint's own rules leave out. Only
 * Hermes checkpoints carry such a list that Vigil's live walk does not share (what git ignores there
 * is computed when the checkpoint is resolved): those files are not changes since the checkpoint.
 */
function isLeftOutBy(checkpoint: CheckpointEntry, change: TreeChange): boolean {
  if (checkpoint.source !== 'hermes' || change.old !== undefined) return false;
  return checkpoint.skipped.some(
    (item) => item.path === change.path || (item.path.endsWith('/') && change.path.startsWith(item.path)),
  );
}

/** A commit's root tree, with the empty tree read as "nothing". */
function rootOf(tree: string): string | undefined {
  return tree === emptyTreeOid ? undefined : tree;
}

/**
 * Resolves a checkpoint (`N` or an id prefix, with the engine's error messages) and the newer side
 * (the directory now, through a walk with the snapshot's rules, or those of the repositories on disk
 * now when `rules` is the function that reads them, that reads only files whose stat
 * the engine's cache cannot vouch for, or another checkpoint), and
 * compares their trees within the scope.
 */
export async function openDiffSides(
  engine: DiffEngine,
  rules: LiveTreeRules | LiveRulesOf,
  dir: string,
  ref: string,
  against: DiffAgainst,
  scope: PathScope,
  loadKnown: (resolvedDir: string) => Promise<KnownHashes> = () => Promise.resolve(noKnownHashes),
): Promise<DiffSides> {
  const from = await engine.resolve(dir, ref);
  const store: TreeReader = { readTree: (oid) => engine.readTree(oid) };
  if (against.kind === 'checkpoint') {
    const checkpoint = await engine.resolve(dir, against.ref);
    const changes = await diffTrees(store, rootOf(from.tree), rootOf(checkpoint.tree), scope);
    return { dir: from.dir, from, to: { kind: 'checkpoint', checkpoint }, reader: store, changes };
  }
  const known = await loadKnown(from.dir);
  // Rules given as a function are those of the repositories on disk now (a clone made since the last checkpoint).
  const live =
    typeof rules === 'function'
      ? (await readLiveTreeNow(rules, from.dir, scope, known)).live
      : await readLiveTree(from.dir, rules, scope, known);
  const reader = overlayReader(live, store);
  const compared = (await diffTrees(reader, rootOf(from.tree), live.root, scope)).filter(
    (change) => !isLeftOutBy(from, change),
  );
  const changes = (await mapLimit(compared, 32, (change) => withHeldFileOnDisk(from.dir, change))).filter(
    (change): change is TreeChange => change !== undefined,
  );
  return { dir: from.dir, from, to: { kind: 'live', live }, reader, changes };
}

/**
 * The bytes of one side of a changed file: from the store, or for the live side from the disk (a
 * symlink's target as git stores it). A live file that vanished since the walk, or is no longer the
 * kind listed, reads as empty; a folder or FIFO put there is refused (`wrong_kind`), never waited on.
 */
export async function readSideContent(
  engine: DiffEngine,
  sides: DiffSides,
  side: 'old' | 'new',
  change: TreeChange,
): Promise<Uint8Array | undefined> {
  const file: TreeFile | undefined = side === 'old' ? change.old : change.new;
  if (file === undefined) return undefined;
  if (side === 'old' || sides.to.kind === 'checkpoint') return engine.readBlob(file.oid);
  const content = await readLiveContent(path.join(sides.dir, ...change.path.split('/')), file, sides.dir);
  return content ?? new Uint8Array();
}
