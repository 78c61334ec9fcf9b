import { execFileSync } from 'node:child_process';
import fs, { chmodSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import type { CheckpointService } from '../checkpoint-service';
import type { CheckpointEntry, StoredTreeEntry } from '../checkpoint-types';
import type { TreeReader } from '../compare';

/** The environment every git call of the tests runs with: no user or system config leaks in. */
export const gitEnv: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
};

/** Runs git's CLI and returns its trimmed stdout. */
export function runGit(
  args: readonly string[],
  options: { readonly env?: NodeJS.ProcessEnv; readonly cwd?: string } = {},
): string {
  return execFileSync('git', args, {
    env: { ...gitEnv, ...options.env },
    cwd: options.cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  }).trim();
}

/** A file to lay down: text, or text with a mode, or a symlink. */
export type FixtureFile =
  string | { readonly content: string | Buffer; readonly mode?: number } | { readonly symlink: string };

/** Writes files (relative paths, `/`-separated) under `root`. */
export function writeFiles(root: string, files: Readonly<Record<string, FixtureFile>>): void {
  for (const [relative, file] of Object.entries(files)) {
    const target = path.join(root, ...relative.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    fs.rmSync(target, { force: true, recursive: true });
    if (typeof file === 'string') writeFileSync(target, file);
    else if ('symlink' in file) symlinkSync(file.symlink, target);
    else {
      writeFileSync(target, file.content);
      if (file.mode !== undefined) chmodSync(target, file.mode);
    }
  }
}

/** Every file and symlink under `root` (relative, sorted), skipping the folders named. */
export function listFiles(root: string, skip: readonly string[] = []): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((relative) => !skip.some((folder) => relative === folder || relative.startsWith(`${folder}/`)))
    .sort();
}

/** A bare store laid out like Vigil's (`refs/vigil/<dirhash>`), written with git's own CLI. */
export function initBareStore(store: string): void {
  runGit(['init', '--bare', '--quiet', store]);
}

/**
 * Commits exactly `paths` of `dir` (default: every file) into the store with git's CLI, using a
 * private index, and returns the commit id; the tree is what `git write-tree` makes of them.
 */
export function gitCommit(
  store: string,
  dir: string,
  message: string,
  paths?: readonly string[],
  parent?: string,
): string {
  const env = { GIT_DIR: store, GIT_WORK_TREE: dir, GIT_INDEX_FILE: path.join(store, `index-${path.basename(dir)}`) };
  runGit(['read-tree', '--empty'], { env });
  if (paths === undefined) runGit(['add', '-A', '--force', '.'], { env, cwd: dir });
  else if (paths.length > 0) runGit(['add', '--force', '--', ...paths], { env, cwd: dir });
  const tree = runGit(['write-tree'], { env });
  return runGit(['commit-tree', tree, '-m', message, ...(parent === undefined ? [] : ['-p', parent])], { env });
}

/** The root tree id of a commit, by git's CLI. */
export function treeOf(store: string, commit: string): string {
  return runGit(['--git-dir', store, 'rev-parse', `${commit}^{tree}`]);
}

/** A tree reader over a store, through isomorphic-git (independent of Vigil's own object reader). */
export function isoTreeReader(store: string): TreeReader & { readBlob(oid: string): Promise<Uint8Array> } {
  const cache = {};
  return {
    async readTree(oid) {
      const { tree } = await git.readTree({ fs, gitdir: store, oid, cache });
      return tree.map((entry): StoredTreeEntry => ({
        mode: entry.mode === '040000' ? '40000' : entry.mode,
        name: entry.path,
        oid: entry.oid,
        type: entry.type,
      }));
    },
    async readBlob(oid) {
      return (await git.readBlob({ fs, gitdir: store, oid, cache })).blob;
    },
  };
}

/** A checkpoint entry for a commit made with git's CLI (what the engine's `resolve` would return). */
export function entryOf(
  store: string,
  dir: string,
  commit: string,
  skipped: CheckpointEntry['skipped'] = [],
): CheckpointEntry {
  return {
    id: commit,
    dir,
    time: new Date(Number(runGit(['--git-dir', store, 'show', '-s', '--format=%ct', commit])) * 1000).toISOString(),
    reason: runGit(['--git-dir', store, 'show', '-s', '--format=%s', commit]),
    attribution: {},
    kind: 'checkpoint',
    stats: { files: 0, insertions: 0, deletions: 0 },
    skipped,
    tree: treeOf(store, commit),
  };
}

/** Rewrites `count` files of `dir` (`src/f<i>.txt`) with `label` in them and checkpoints it: a new checkpoint, or it throws. */
export async function checkpointVersion(
  engine: CheckpointService,
  dir: string,
  label: string,
  count: number,
): Promise<void> {
  writeFiles(
    dir,
    Object.fromEntries(Array.from({ length: count }, (_, index) => [`src/f${index}.txt`, `${label} ${index}\n`])),
  );
  const outcome = await engine.checkpoint(dir, { reason: label });
  if (outcome.kind !== 'created') throw new Error('expected a new checkpoint');
}
