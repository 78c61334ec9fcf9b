import type { CheckpointApi } from '../checkpoint-api';
import type { KnownHashes } from '../snapshot/known-hashes';
import { repositoriesOnTheWay, type FoundRepositories } from '../snapshot/nested-repositories';
import type { StoreRules } from '../snapshot/store-rules';
import { readLiveTree, type LiveTree, type LiveTreeOptions, type LiveTreeRules } from './diff-live-tree';
import type { PathScope } from './diff-path-scope';

/** The rules a live side is judged by, with the directory's store rules. */
export type LiveSideRules = LiveTreeRules & { readonly storeRules: StoreRules };

/** The rules a live side is read by: the engine's size cap and ignored folders, and the directory's own store rules. */
export type LiveRulesOf = (dir: string, found?: FoundRepositories) => Promise<LiveSideRules>;

/**
 * The live side of `dir` is judged as a snapshot of it would be: by the base rules (size cap,
 * Vigil's own folders) and the directory's store rules (its repository's tracked files and ignore rules;
 * `found`: the repositories a look at `dir` met, see `CheckpointApi.storeRules`).
 */
export function liveRulesOf(engine: Pick<CheckpointApi, 'storeRules'>, base: LiveTreeRules): LiveRulesOf {
  return async (dir, found) => ({ ...base, storeRules: (await engine.storeRules(dir, found)).rules });
}

/**
 * Reads the live side of `dir` in `scope` by the repositories on disk now, as a snapshot taken now
 * would judge it: the rules known are rebuilt with the `.git`s the walk met (a walk of all of `dir`)
 * or those on the way to the scope's paths and below them, and the side is read again when that
 * changes them (a clone made since the last checkpoint is judged by its own index and ignore files).
 * `read` reads the side by some rules (default: `readLiveTree` with `known` and `options`).
 */
export async function readLiveSideNow(
  rulesFor: LiveRulesOf,
  dir: string,
  scope: PathScope,
  read: (rules: LiveSideRules) => Promise<LiveTree>,
): Promise<{ readonly live: LiveTree; readonly rules: LiveSideRules }> {
  const rules = await rulesFor(dir);
  const live = await read(rules);
  const rebuilt = await rulesFor(dir, await repositoriesOnTheWay(dir, scope.paths, live.skipped));
  if (rebuilt.storeRules.key === rules.storeRules.key) return { live, rules };
  return { live: await read(rebuilt), rules: rebuilt };
}

/** `readLiveSideNow` reading with `readLiveTree`. */
export function readLiveTreeNow(
  rulesFor: LiveRulesOf,
  dir: string,
  scope: PathScope,
  known?: KnownHashes,
  options?: LiveTreeOptions,
): Promise<{ readonly live: LiveTree; readonly rules: LiveSideRules }> {
  return readLiveSideNow(rulesFor, dir, scope, (rules) => readLiveTree(dir, rules, scope, known, options));
}
