import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gitEnv } from './git-env';

/**
 * The inputs of the object-layer bench, made the same way for both layers: a generated project
 * (text files, 50 per folder, 10 folders per top folder) and stores made by git's own CLI.
 */

/** Runs git's CLI (auto-gc off) and returns its stdout. */
export function git(args: readonly string[], cwd?: string): string {
  return execFileSync('git', ['-c', 'gc.auto=0', ...args], {
    cwd,
    env: gitEnv,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** `git fsck --full` on a git directory: the problems it reports (notices aside), none when clean. */
export function fsckProblems(gitdir: string): string[] {
  const result = spawnSync('git', ['--git-dir', gitdir, 'fsck', '--full', '--strict', '--no-dangling'], {
    env: gitEnv,
    encoding: 'utf8',
  });
  const lines = `${result.stdout}${result.stderr}`
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('notice:'));
  return result.status === 0 ? lines : [`exit ${String(result.status)}`, ...lines];
}

/** Every object of a git directory (loose and packed), as `oid type` lines sorted by id. */
export function listObjects(gitdir: string): string[] {
  return git(['--git-dir', gitdir, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype)'])
    .split('\n')
    .filter((line) => line !== '')
    .sort();
}

/** One file of the generated project. */
export interface ProjectFile {
  /** `t3/l7`: the leaf folder. */
  readonly folder: string;
  readonly name: string;
}

/** The generated project's files: 50 per leaf folder, 10 leaf folders per top folder. */
export function projectFiles(count: number): ProjectFile[] {
  return Array.from({ length: count }, (_, index) => ({
    folder: `t${Math.floor(index / 500)}/l${Math.floor(index / 50) % 10}`,
    name: `f${index}.ts`,
  }));
}

/**
 * The content of file `index` at `version`: 100 B to 4 KiB of source-like lines; a new version
 * edits one line in the middle, as an agent's patch would (so `git gc` finds deltas).
 */
export function fileContent(index: number, version: number): Buffer {
  const size = 100 + ((index * 7919) % 4000);
  const lines: string[] = [];
  let length = 0;
  for (let line = 0; length < size; line += 1) {
    const text = `export const value${line} = ${(index * 31 + line * 17) % 1000}; // file ${index}, line ${line}\n`;
    lines.push(text);
    length += text.length;
  }
  if (version > 0)
    lines.splice(
      Math.floor(lines.length / 2),
      1,
      `export const edited = ${version}; // edited in version ${version}\n`,
    );
  return Buffer.from(lines.join(''));
}

/** Lays the project down at `version` (only the files whose index passes `isChanged`, when given). */
export function writeProject(
  dir: string,
  files: readonly ProjectFile[],
  version: number,
  isChanged: (index: number) => boolean = () => true,
): void {
  files.forEach((file, index) => {
    if (!isChanged(index)) return;
    const folder = path.join(dir, file.folder);
    if (index % 50 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, file.name), fileContent(index, version));
  });
}

/** A bare store holding the project's blobs and trees as loose objects, written by `git add` and `git write-tree`. */
export function looseStoreByGit(gitdir: string, workTree: string): { readonly tree: string } {
  git(['init', '--quiet', '--bare', gitdir]);
  git(['--git-dir', gitdir, '--work-tree', workTree, 'add', '-A']);
  return { tree: git(['--git-dir', gitdir, 'write-tree']).trim() };
}

/** What `git verify-pack` says of a pack: objects, deltas among them, the longest delta chain. */
export interface PackShape {
  readonly objects: number;
  readonly deltas: number;
  readonly maxDepth: number;
}

/**
 * A bare store with a history of `rounds` commits over the project (each editing `perRound`
 * files) and then `git gc`, so every object sits in one deltified pack; returns its head commit.
 */
export function gcStoreByGit(
  gitdir: string,
  workTree: string,
  files: readonly ProjectFile[],
  rounds: number,
  perRound: number,
): { head: string; shape: PackShape } {
  git(['init', '--quiet', '--bare', gitdir]);
  const commit = (message: string): void => {
    git(['--git-dir', gitdir, '--work-tree', workTree, 'add', '-A']);
    git(['--git-dir', gitdir, '--work-tree', workTree, 'commit', '--quiet', '-m', message]);
  };
  commit('first');
  const step = Math.max(1, Math.floor(files.length / perRound));
  for (let round = 1; round <= rounds; round += 1) {
    writeProject(workTree, files, round, (index) => index % step === round % step);
    commit(`round ${round}`);
  }
  git(['--git-dir', gitdir, 'gc', '--quiet']);
  const packDir = path.join(gitdir, 'objects/pack');
  const indexes = readdirSync(packDir).filter((name) => name.endsWith('.idx'));
  if (indexes.length !== 1 || indexes[0] === undefined) throw new Error(`git gc left ${indexes.length} packs`);
  const verified = git(['verify-pack', '-v', path.join(packDir, indexes[0])]).split('\n');
  const objects = verified.filter((line) => /^[0-9a-f]{40} /.test(line));
  const depths = objects
    .map((line) => line.split(/\s+/))
    .filter((parts) => parts.length >= 7)
    .map((parts) => Number(parts[5]));
  return {
    head: git(['--git-dir', gitdir, 'rev-parse', 'HEAD']).trim(),
    shape: { objects: objects.length, deltas: depths.length, maxDepth: Math.max(0, ...depths) },
  };
}
