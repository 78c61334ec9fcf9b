/**
 * Repositories below a checkpointed folder that are not its submodules (a folder of clones, a
 * scratch clone inside a repository): found by the walk itself, which records every `.git` it meets
 * as a skipped entry, and remembered beside the directory's stat cache for the next process.
 */
import { lstat, mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../files';
import type { SkippedPath } from '../checkpoint-types';
import type { DirState } from './dir-state';
import { gitdirAt } from './git-files';
import { skipCountOf, skipsOf } from './saved-folder';

/** The folders (relative, never the directory itself) whose entries include a `.git`, as the last scan left the state; sorted. */
export function foldersWithGit(state: DirState): string[] {
  const found: string[] = [];
  for (const [rel, node] of state.nodes()) {
    if (rel === '' || skipCountOf(node) === 0) continue;
    for (const [name] of skipsOf(node))
      if (name === '.git' || name === '.git/') {
        found.push(rel);
        break;
      }
  }
  return found.sort();
}

/** The folders (relative, never the directory itself) holding a `.git` that a walk listed as skipped; sorted. */
export function foldersWithGitSkipped(skipped: readonly SkippedPath[]): string[] {
  const found = new Set<string>();
  for (const { path: rel } of skipped) {
    const name = rel.endsWith('/') ? rel.slice(0, -1) : rel;
    if (name.endsWith('/.git')) found.add(name.slice(0, -'/.git'.length));
  }
  return [...found].sort();
}

/**
 * What a look at the folder found of the repositories inside it: the folders holding a `.git` that a
 * walk of all of it met (sorted), or those a look at part of it met (`found`) with what it looked at
 * (`looked`: folders asked for their `.git` one by one, and subtrees, `x/`, walked whole). The
 * folders outside what it looked at stay as the rules knew them.
 */
export type FoundRepositories =
  readonly string[] | { readonly looked: readonly string[]; readonly found: readonly string[] };

/** The whole sorted list `found` stands for, given the folders the rules knew (`known`). */
export function mergedFolders(known: readonly string[], found: FoundRepositories): string[] {
  if (Array.isArray(found)) return [...(found as readonly string[])];
  const { looked, found: met } = found as Exclude<FoundRepositories, readonly string[]>;
  const folders = new Set(looked.filter((item) => !item.endsWith('/')));
  const subtrees = looked.filter((item) => item.endsWith('/'));
  const isLooked = (folder: string): boolean =>
    folders.has(folder) || subtrees.some((subtree) => folder.startsWith(subtree));
  return [...new Set([...known.filter((folder) => !isLooked(folder)), ...met])].sort();
}

/**
 * What a look at the paths `paths` (a scope's, relative) of `dir` finds of its repositories: each
 * folder on the way to a path, and the path itself, asked for its `.git` (an lstat each); below the
 * paths, the `.git`s the walk of them met (`skipped`, see `foldersWithGitSkipped`). No paths: the
 * walk was of all of `dir`, and what it met is the whole answer.
 */
export async function repositoriesOnTheWay(
  dir: string,
  paths: readonly string[],
  skipped: readonly SkippedPath[],
): Promise<FoundRepositories> {
  const walked = foldersWithGitSkipped(skipped);
  if (paths.length === 0) return walked;
  const folders = new Set<string>();
  for (const item of paths) {
    const parts = item.split('/');
    for (let depth = 1; depth <= parts.length; depth += 1) folders.add(parts.slice(0, depth).join('/'));
  }
  const looked = [...folders];
  const present = await Promise.all(
    looked.map((folder) =>
      lstat(path.join(dir, ...folder.split('/'), '.git')).then(
        () => true,
        () => false,
      ),
    ),
  );
  const met = looked.filter((_, index) => present[index] === true);
  return { looked: [...looked, ...paths.map((item) => `${item}/`)], found: [...new Set([...met, ...walked])].sort() };
}

/** Whether two sorted lists of folders are the same. */
export function isSameFolders(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

/** What the `.git` of a folder makes it: the top of a repository, nothing (no `.git`), or a problem naming the file. */
export type RepositoryTop =
  { readonly kind: 'repository' | 'none' } | { readonly kind: 'bad'; readonly problem: string };

/**
 * Whether `folder` is the top of a repository as git finds one: its `.git` is a folder, or a file
 * whose `gitdir:` names one, holding a `HEAD` file. A `.git` that names no such folder leaves the
 * folder to the rules around it, with a warning naming the file.
 */
export async function repositoryTopAt(folder: string): Promise<RepositoryTop> {
  const dotGit = path.join(folder, '.git');
  const info = await lstat(dotGit).catch(() => undefined);
  if (info === undefined) return { kind: 'none' };
  const gitdir = await gitdirAt(folder, info);
  const head = gitdir === undefined ? undefined : await stat(path.join(gitdir, 'HEAD')).catch(() => undefined);
  if (head?.isFile() === true) return { kind: 'repository' };
  const named = gitdir === undefined ? 'names no git directory' : `names ${gitdir}, which is not a git directory`;
  return {
    kind: 'bad',
    problem: `${dotGit} ${named}: the files in ${folder} follow the rules of the folder around it until it is fixed.`,
  };
}

/** The file beside a directory's stat cache that remembers the folders holding a `.git` its last walk found. */
export function rememberedFoldersFile(statCacheFile: string): string {
  return `${statCacheFile}.nested`;
}

/** The folders a file remembers (a missing or damaged one remembers none: the next walk finds them again). */
export async function readRememberedFolders(file: string | undefined): Promise<string[]> {
  if (file === undefined) return [];
  const text = await readFile(file, 'utf8').catch(() => '');
  if (text === '') return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? [...parsed].sort() : [];
  } catch {
    return [];
  }
}

/** Remembers the folders (written atomically; a hint only, so a failed write is left for the next walk to redo). */
export async function rememberFolders(file: string | undefined, folders: readonly string[]): Promise<void> {
  if (file === undefined) return;
  await mkdir(path.dirname(file), { recursive: true }).catch(() => undefined);
  await writeFileAtomic(file, JSON.stringify(folders)).catch(() => undefined);
}
