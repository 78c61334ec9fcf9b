import path from 'node:path';
import { AppError } from '../../../shared/errors';

/** The paths a diff or a restore is limited to; empty means the whole directory. */
export interface PathScope {
  /** Normalized `/`-separated relative paths (files or folders), sorted, without duplicates. */
  readonly paths: readonly string[];
  /** Whether `relativePath` is one of the paths or lies under one. */
  covers(relativePath: string): boolean;
  /** Whether a walk must look inside folder `relativePath` ("" is the root) to reach the scope. */
  enters(relativePath: string): boolean;
  /** Whether `relativePath` was named itself (not only reached through a folder). */
  names(relativePath: string): boolean;
  /**
   * The names inside folder `relativePath` that the scope reaches when it only passes through the
   * folder on the way to the paths it names (`a/b/c` reaches `a` in '', `b` in `a`, `c` in `a/b`);
   * undefined when every name inside counts (the scope covers the folder, or is everything).
   */
  namedIn(relativePath: string): ReadonlySet<string> | undefined;
}

/** The names each folder on the way to the named paths holds toward them. */
function namesOnTheWay(paths: readonly string[]): ReadonlyMap<string, ReadonlySet<string>> {
  const children = new Map<string, Set<string>>();
  for (const named of paths) {
    const parts = named.split('/');
    for (let depth = 0; depth < parts.length; depth += 1) {
      const parent = parts.slice(0, depth).join('/');
      let names = children.get(parent);
      if (names === undefined) children.set(parent, (names = new Set()));
      names.add(parts[depth] ?? '');
    }
  }
  return children;
}

const noNames: ReadonlySet<string> = new Set();

/** `a/b/c` → `a/b`, `a` → `` (the root). */
function parentOf(relativePath: string): string {
  const slash = relativePath.lastIndexOf('/');
  return slash < 0 ? '' : relativePath.slice(0, slash);
}

/**
 * Turns a path a person or the UI gave into a normalized relative path inside the directory, or
 * refuses it (`invalid_request`): empty, absolute (`/x`, `C:\x`, `\\server\x`), NUL bytes, a
 * `..` that leaves the directory, or the directory itself. Backslashes count as separators on
 * Windows only, where they are one.
 */
export function normalizeRelativePath(input: string): string {
  const refuse = (why: string): never => {
    throw new AppError('invalid_request', `The path "${input}" ${why}.`, { field: 'paths', path: input });
  };
  if (input.length === 0) refuse('is empty: name a file or folder inside the directory');
  if (input.includes('\0')) refuse('contains a NUL byte');
  const text = process.platform === 'win32' ? input.replaceAll('\\', '/') : input;
  if (path.isAbsolute(input) || path.posix.isAbsolute(text) || /^[A-Za-z]:/.test(text)) {
    refuse('is absolute: give it relative to the directory (as `vigil checkpoints diff` lists it)');
  }
  const normalized = path.posix.normalize(text).replace(/\/+$/, '');
  if (normalized === '..' || normalized.startsWith('../'))
    refuse('leaves the directory: restores never reach outside it');
  if (normalized === '.' || normalized === '')
    refuse('is the directory itself: leave the file list out to restore everything');
  return normalized;
}

/** Builds a scope from the paths given (validated and normalized); no paths means everything. */
export function createPathScope(inputs: readonly string[] = []): PathScope {
  const paths = [...new Set(inputs.map(normalizeRelativePath))].sort();
  if (paths.length === 0) {
    return { paths, covers: () => true, enters: () => true, names: () => false, namedIn: () => undefined };
  }
  const named = new Set(paths);
  const ancestors = new Set<string>(['']);
  for (const item of paths) {
    for (let parent = parentOf(item); parent !== ''; parent = parentOf(parent)) ancestors.add(parent);
  }
  const onTheWay = namesOnTheWay(paths);
  const covers = (relativePath: string): boolean => {
    for (let current = relativePath; current !== ''; current = parentOf(current)) {
      if (named.has(current)) return true;
    }
    return false;
  };
  return {
    paths,
    covers,
    enters: (relativePath) => ancestors.has(relativePath) || covers(relativePath),
    names: (relativePath) => named.has(relativePath),
    namedIn: (relativePath) => (covers(relativePath) ? undefined : (onTheWay.get(relativePath) ?? noNames)),
  };
}
