import type { CheckpointApi } from '../checkpoint-api';
import type { StoreRules } from '../snapshot/store-rules';
import type { LiveTreeRules } from './diff-live-tree';

/** The rules a live side is read by: the engine's size cap and ignored folders, and the directory's own store rules. */
export type LiveRulesOf = (
  dir: string,
  found?: readonly string[],
) => Promise<LiveTreeRules & { readonly storeRules: StoreRules }>;

/**
 * The live side of `dir` is judged as a snapshot of it would be: by the base rules (size cap,
 * Vigil's own folders) and the directory's store rules (its repository's tracked files and ignore rules;
 * `found`: the folders holding a `.git` that a walk of all of `dir` met, see `CheckpointApi.storeRules`).
 */
export function liveRulesOf(engine: Pick<CheckpointApi, 'storeRules'>, base: LiveTreeRules): LiveRulesOf {
  return async (dir, found) => ({ ...base, storeRules: (await engine.storeRules(dir, found)).rules });
}
