import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CheckpointOutcome, CheckpointService } from '../checkpoints';
import { RandomFileOps, seededRandom } from './random-file-ops';

/** How one differential run went: the watching engine against a full walk after every checkpoint. */
export interface DifferentialResult {
  readonly seed: number;
  readonly ops: number;
  readonly checkpoints: number;
  /** Checkpoints also compared with `git write-tree` of the folder. */
  readonly gitChecks: number;
  /** Changes the background verification walk found the watcher had missed. */
  readonly missedByWatcher: number;
  /** The first checkpoint whose tree differed, with the operations that led to it. */
  readonly divergence?: {
    readonly checkpoint: number;
    readonly watched: string;
    readonly truth: string;
    readonly log: readonly string[];
  };
}

/** What a differential run does. */
export interface DifferentialOptions {
  /** An empty folder of its own. */
  readonly base: string;
  readonly seed: number;
  readonly ops: number;
  /** Compare with `git write-tree` every this many checkpoints (and at the end). */
  readonly gitEvery?: number;
  /** Run the watching engine's verification walk every this many checkpoints. */
  readonly verifyEvery?: number;
  /** An engine on a store of its own under `root`: watching (as `vigil serve`) or not (as `--local`). */
  readonly engine: (root: string, isWatching: boolean) => CheckpointService;
  /** What `git write-tree` makes of `dir`, through the bare git dir `shadow`. */
  readonly gitWriteTree: (shadow: string, dir: string) => string;
}

/** The tree a checkpoint left the timeline at (an unchanged one: the tree it had). */
async function treeAfter(service: CheckpointService, dir: string, previous: string | undefined): Promise<string> {
  const outcome: CheckpointOutcome = await service.checkpoint(dir, { reason: 'manual checkpoint' });
  if (outcome.kind === 'created') return outcome.checkpoint.tree;
  if (previous === undefined) throw new Error('the first checkpoint found nothing to store');
  return previous;
}

/**
 * Random file operations on a folder, 1 to 3 between checkpoints; after each checkpoint the tree
 * the watching engine stored (as `vigil serve` runs it) must equal the tree of a full walk of the
 * folder (an engine that does not watch, as `vigil checkpoint --local`), and now and then what git
 * itself writes. Stops at the first divergence, which it returns with the op log.
 */
export async function runWatcherDifferential(options: DifferentialOptions): Promise<DifferentialResult> {
  const { base, seed } = options;
  const dir = path.join(base, 'work');
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(path.join(dir, 'src/a'), 'a\n');
  const watched = options.engine(path.join(base, 'home-watched'), true);
  const walked = options.engine(path.join(base, 'home-walked'), false);
  const random = seededRandom(seed);
  const ops = new RandomFileOps(dir, random);
  const log: string[] = [];
  let [done, checkpoints, gitChecks, missedByWatcher] = [0, 0, 0, 0];
  let [watchedTree, truthTree]: (string | undefined)[] = [undefined, undefined];
  try {
    while (done < options.ops) {
      const batch = Math.min(1 + Math.floor(random() * 3), options.ops - done);
      for (let index = 0; index < batch; index += 1) log.push(ops.step());
      done += batch;
      checkpoints += 1;
      watchedTree = await treeAfter(watched, dir, watchedTree);
      truthTree = await treeAfter(walked, dir, truthTree);
      log.push(`checkpoint ${checkpoints}: ${watchedTree}`);
      const isLast = done >= options.ops;
      if (watchedTree === truthTree && (isLast || checkpoints % (options.gitEvery ?? 25) === 0)) {
        truthTree = options.gitWriteTree(path.join(base, `shadow-${checkpoints}`), dir);
        gitChecks += 1;
      }
      if (watchedTree !== truthTree)
        return {
          seed,
          ops: done,
          checkpoints,
          gitChecks,
          missedByWatcher,
          divergence: { checkpoint: checkpoints, watched: watchedTree, truth: truthTree, log },
        };
      if (checkpoints % (options.verifyEvery ?? 20) === 0)
        for (const outcome of await watched.verifyWatched(dir))
          if (outcome.kind === 'verified') missedByWatcher += outcome.missed.length;
    }
    return { seed, ops: done, checkpoints, gitChecks, missedByWatcher };
  } finally {
    await watched.dispose();
    await walked.dispose();
  }
}
