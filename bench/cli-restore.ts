import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitEnv } from './git-env';
import { alternateAll, checkpointChange, gitArgs, timed, type Project } from './cli-project';
import { cli, root } from './vigil-process';

/** The bare durable restore that the restore row is set beside (see the script's header). */
const restoreFloorScript = path.join(root, 'bench', 'durable-restore-floor.mjs');

/** A restore by name's medians: git checkout alone, git checkout + fsync, Vigil's restore, and the bare durable floor. */
export interface RestoreTimes {
  readonly git: number;
  /** `git checkout -- FILES` then `sync FILES FOLDERS` (coreutils: one fsync each), timed together. */
  readonly gitDurable: number;
  readonly vigil: number;
  readonly floor: number;
}

/** Every `step`-th file of the project, `count` of them. */
function spread(files: readonly string[], count: number): string[] {
  return files.filter((_file, index) => index % Math.floor(files.length / count) === 0).slice(0, count);
}

/**
 * A restore by name of `count` files: `git checkout -- FILES`, the same plus an fsync of those files
 * and their folders (what a durable restore cannot skip), `vigil checkpoints restore DIR N FILES` and
 * the floor script on the same files, in turn, the files damaged before each. Every Vigil restore
 * goes back to the same checkpoint, the one git's index matches: each restore's undo point becomes
 * the newest checkpoint, so N counts the restores made (with a fixed `1`, every restore after the
 * first went back to the previous one's undo point, writing the damaged text git never writes).
 */
export function measureRestore(project: Project, runs: number, count: number): RestoreTimes {
  const { dir, files, store, env } = project;
  const named = spread(files, count);
  const folders = [...new Set(named.map((file) => path.dirname(path.join(dir, file))))];
  const damage = (run: number): void => {
    for (const file of named) writeFileSync(path.join(dir, file), `damaged ${run}\n`);
  };
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-floor-'));
  checkpointChange(project, 19_999 - count);
  let restores = 0;
  try {
    const checkout = (): number => timed('git', gitArgs(store, dir, ['checkout', '--', ...named]), gitEnv);
    const [git = Number.NaN, gitDurable = Number.NaN, vigil = Number.NaN, floor = Number.NaN] = alternateAll(
      runs,
      damage,
      [
        checkout,
        () => checkout() + timed('sync', [...named.map((file) => path.join(dir, file)), ...folders], gitEnv),
        () => timed(process.execPath, [cli, 'checkpoints', 'restore', dir, String(++restores), ...named], env),
        () => timed(process.execPath, [restoreFloorScript, scratch, dir, ...named], env),
      ],
    );
    return { git, gitDurable, vigil, floor };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A one-file restore by name (`first`: `node -e 0`, `second`: Vigil's restore), alternately, the file damaged before each. */
export function measureOneFileRestore(
  project: Project,
  runs: number,
): { readonly node: number; readonly vigil: number } {
  const { dir, files, env } = project;
  const [file = ''] = spread(files, 1);
  checkpointChange(project, 17_777);
  // Every restore goes back to the same checkpoint (see measureRestore): N counts the restores made.
  let restores = 0;
  const [node = Number.NaN, vigil = Number.NaN] = alternateAll(
    runs,
    (run) => writeFileSync(path.join(dir, file), `damaged ${run}\n`),
    [
      () => timed(process.execPath, ['-e', '0'], env),
      () => timed(process.execPath, [cli, 'checkpoints', 'restore', dir, String(++restores), file], env),
    ],
  );
  return { node, vigil };
}
