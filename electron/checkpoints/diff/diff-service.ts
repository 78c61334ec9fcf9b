import type { CheckpointApi } from '../checkpoint-api';
import {
  createPathScope,
  knownHashesLoader,
  liveRulesOf,
  openDiffSides,
  type DiffAgainst,
  type KnownHashes,
  type PathScope,
} from '../compare';
import { diffFiles, diffOneFile, diffPage, type DiffPage, type FileDiff } from './diff-checkpoint';

/** What the composition root passes to the diff service. */
export interface DiffServiceOptions {
  /** The checkpoint engine (or the merged timelines): resolves refs, reads trees and blobs, knows the stat records. */
  readonly engine: CheckpointApi;
  /** `$VIGIL_HOME/checkpoints`: where a one-shot process finds the engine's stat caches. */
  readonly root: string;
  /** The engine's size cap, so the live side is judged as a snapshot would judge it. */
  readonly maxFileBytes: number;
  /** Absolute folders a snapshot never enters (Vigil's data folder). */
  readonly ignoredFolders: readonly string[];
}

/** What a diff request narrows to: some paths, and a page of the changed files. */
export interface DiffPageOptions {
  readonly paths?: readonly string[];
  readonly offset?: number;
  readonly limit?: number;
}

/** Diffs of checkpoints: with the directory now, or with another checkpoint; changes nothing. See design.md §3. */
export interface DiffService {
  /** A page of the diff between checkpoint `ref` and the directory now (or another checkpoint). */
  diff(dir: string, ref: string, against: DiffAgainst, options?: DiffPageOptions): Promise<DiffPage>;
  /** One file's hunks, capped at `maxLines` with the rest counted. */
  fileDiff(dir: string, ref: string, against: DiffAgainst, relativePath: string, maxLines?: number): Promise<FileDiff>;
  /** Several files' hunks of one comparison (a stacked view), each capped at `maxLines`; paths that did not change come back as `unchanged`. */
  fileDiffs(
    dir: string,
    ref: string,
    against: DiffAgainst,
    paths: readonly string[],
    maxLines?: number,
  ): Promise<{ readonly files: FileDiff[]; readonly unchanged: string[] }>;
}

/** The diff service of an engine with its stat caches in their usual place under `root` (`$VIGIL_HOME/checkpoints`). */
export function diffServiceFor(engine: CheckpointApi & { readonly maxFileBytes: number }, root: string): DiffService {
  return createDiffService({ engine, root, maxFileBytes: engine.maxFileBytes, ignoredFolders: [root] });
}

/** Builds the diff service over the checkpoint engine. */
export function createDiffService(options: DiffServiceOptions): DiffService {
  const { engine } = options;
  const rulesFor = liveRulesOf(engine, { maxFileBytes: options.maxFileBytes, ignoredFolders: options.ignoredFolders });
  const loadKnown: (dir: string) => Promise<KnownHashes> = knownHashesLoader(options.root, (dir) =>
    engine.knownHashes(dir),
  );
  const sidesOf = async (dir: string, ref: string, against: DiffAgainst, scope: PathScope) =>
    openDiffSides(engine, rulesFor, dir, ref, against, scope, loadKnown);

  return {
    async diff(dir, ref, against, { paths = [], offset = 0, limit = 200 } = {}) {
      return diffPage(engine, await sidesOf(dir, ref, against, createPathScope(paths)), offset, limit);
    },

    async fileDiff(dir, ref, against, relativePath, maxLines = 2_000) {
      const scope = createPathScope([relativePath]);
      return diffOneFile(engine, await sidesOf(dir, ref, against, scope), scope.paths[0] ?? relativePath, maxLines);
    },

    async fileDiffs(dir, ref, against, paths, maxLines = 2_000) {
      const scope = createPathScope(paths);
      return diffFiles(engine, await sidesOf(dir, ref, against, scope), scope.paths, maxLines);
    },
  };
}
