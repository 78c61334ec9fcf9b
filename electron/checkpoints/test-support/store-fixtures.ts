import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { silentLogger } from '../../logging/logger';
import { CheckpointService } from '../checkpoint-service';
import type { CheckpointServiceOptions } from '../checkpoint-api';
import type { CheckpointEntry, CheckpointOutcome } from '../checkpoint-types';

/** git with no user or system configuration, and a fixed identity. */
const gitEnvironment: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
};

/** Runs git's CLI; returns stdout (trimmed). Throws with stderr when git fails. */
export function git(
  args: readonly string[],
  options: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv } = {},
): string {
  return execFileSync('git', args, {
    cwd: options.cwd,
    env: { ...gitEnvironment, ...options.env },
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/** Runs `git fsck --full --strict` on a store; returns what it printed on stderr and stdout (errors make it throw). */
export function fsck(gitdir: string): string {
  const output = execFileSync('git', ['--git-dir', gitdir, 'fsck', '--full', '--strict', '--no-dangling'], {
    env: gitEnvironment,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return output.trim();
}

/** A file to lay down: text, text with a mode, or a symlink. */
export type TreeFile =
  string | Buffer | { readonly content: string | Buffer; readonly mode: number } | { readonly symlink: string };

/** Writes files (relative, `/`-separated) under `root`, replacing what is there. */
export function writeTree(root: string, files: Readonly<Record<string, TreeFile>>): void {
  for (const [relative, file] of Object.entries(files)) {
    const target = path.join(root, ...relative.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    rmSync(target, { force: true, recursive: true });
    if (typeof file === 'string' || Buffer.isBuffer(file)) writeFileSync(target, file);
    else if ('symlink' in file) symlinkSync(file.symlink, target);
    else {
      writeFileSync(target, file.content);
      chmodSync(target, file.mode);
    }
  }
}

/** Generates `count` small text files in folders of 50 (`d<i>/f<j>.txt`), like the benchmark trees. */
export function generateTree(root: string, count: number, seed = 1): void {
  for (let index = 0; index < count; index += 1) {
    const folder = path.join(root, `d${Math.floor(index / 50)}`);
    if (index % 50 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, `f${index % 50}.txt`), `file ${index} seed ${seed}\n${'line\n'.repeat(index % 7)}`);
  }
}

/**
 * What `git write-tree` makes of a directory with Vigil's exclusions given as pathspecs, through a
 * shadow git dir and a private index: the reference a checkpoint's tree must equal.
 */
export function gitWriteTree(shadow: string, dir: string, excludes: readonly string[] = []): string {
  const env = { GIT_DIR: shadow, GIT_WORK_TREE: dir, GIT_INDEX_FILE: path.join(shadow, `index-${path.basename(dir)}`) };
  git(['init', '--quiet', '--bare', shadow]);
  git(['read-tree', '--empty'], { env });
  git(['add', '-A', '--force', '--', '.', ...excludes.map((pattern) => `:(exclude,glob)${pattern}`)], {
    env,
    cwd: dir,
  });
  return git(['write-tree'], { env });
}

/** A checkpoint service on a temp store, for tests (no refused directories, silent log). */
export function testService(root: string, options: Partial<CheckpointServiceOptions> = {}): CheckpointService {
  return new CheckpointService({ root, logger: silentLogger, refusedDirs: [], ...options });
}

/** The checkpoint an outcome made; throws, naming the outcome, when it made none. */
export function created(outcome: CheckpointOutcome): CheckpointEntry {
  if (outcome.kind !== 'created') throw new Error(`expected a checkpoint, got ${JSON.stringify(outcome)}`);
  return outcome.checkpoint;
}

/**
 * A tree of 2,500 files in `dir`, big enough that its stat cache says a walk in a worker thread pays off (about
 * 2,000 files), with its first checkpoint taken in the store under `root` by a service already let go.
 */
export async function bigTreeCheckpointed(dir: string, root: string): Promise<void> {
  generateTree(dir, 2_500);
  const first = testService(root);
  try {
    created(await first.checkpoint(dir, { reason: 'first' }));
  } finally {
    await first.dispose();
  }
}
