import ignore, { type Ignore } from 'ignore';
import type { SkipReason } from '../checkpoint-types';
import { directoryExclusion, fileExclusion, isAlwaysExcludedFileName, isVcsName } from './exclusion-rules';

/** One source of ignore patterns: a `.gitignore` (its folder, relative to the repository's top), `info/exclude` or the global excludes file (base ''). */
export interface IgnoreSourceData {
  /** The folder the patterns are relative to, from the repository's top, without a trailing `/` ('' for the top). */
  readonly base: string;
  readonly patterns: string;
  /** Lower sources lose to higher ones: global excludes 0, `info/exclude` 1, a `.gitignore` 2 plus its depth. */
  readonly precedence: number;
}

/**
 * What a snapshot stores of a directory, as plain data (it crosses to the walking worker threads):
 * no repository (Vigil's built-in rules), or a repository's tracked paths and ignore patterns.
 */
export interface StoreRulesData {
  /** Tells rule sets apart: equal keys, equal rules. */
  readonly key: string;
  /** The directory relative to the repository's top, with a trailing `/` ('' when it is the top, or no repository). */
  readonly prefix: string;
  /** Paths git tracks below the directory, relative to it (`/`-separated). */
  readonly tracked: readonly string[];
  readonly sources: readonly IgnoreSourceData[];
  readonly isRepository: boolean;
  /**
   * Repositories inside this one's work tree that git tracks as submodules, each with its own rules:
   * git judges their files by their own index and ignore files, never by this repository's.
   */
  readonly nested?: readonly NestedRulesData[];
}

/** A nested repository's rules: the folder (relative to the directory, `/`-separated, no trailing `/`) and what it stores. */
export interface NestedRulesData {
  readonly at: string;
  readonly rules: StoreRulesData;
  /** A submodule (a gitlink of the outer index, counted there as one tracked path), or a clone the walk found. */
  readonly kind?: 'submodule' | 'clone';
}

/** A repository inside the directory and what it tracks, for the store's status. */
export interface NestedRepositorySummary {
  readonly at: string;
  readonly kind: 'submodule' | 'clone';
  readonly tracked: number;
}

/** The built-in rules' data: no repository. */
export const builtInRulesData: StoreRulesData = {
  key: 'built-in',
  prefix: '',
  tracked: [],
  sources: [],
  isRepository: false,
};

/** What git's ignore rules say of a path: ignored, re-included by a `!` pattern, or nothing. */
type IgnoreVerdict = 'ignored' | 'unignored' | 'none';

/** How a folder is walked: entirely, only for the tracked files it holds (its other files are left out), or not at all. */
type FolderVerdict =
  { readonly kind: 'walk' } | { readonly kind: 'tracked-only' | 'skip'; readonly reason: SkipReason };

const walk: FolderVerdict = { kind: 'walk' };

function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? '' : rel.slice(0, slash);
}

/** The paths in JavaScript's string order: the same array when it already is (git's byte order agrees for most names). */
function inOrder(paths: readonly string[]): readonly string[] {
  for (let index = 1; index < paths.length; index += 1)
    if ((paths[index - 1] as string) > (paths[index] as string)) return [...paths].sort();
  return paths;
}

/** The first index of `sorted` whose path is not below `key` in string order. */
function lowerBound(sorted: readonly string[], key: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as string) < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The rules that decide what a snapshot stores (design.md §4, "Store what the project holds"):
 * inside a repository, every tracked file whatever its name; untracked files by the repository's
 * ignore rules; Vigil's built-in names only where no repository is, or for untracked files no
 * ignore rule covers. Version-control folders and memory lock sidecars are never stored. Size is
 * judged elsewhere (one cap for all).
 */
export class StoreRules {
  static readonly builtIn = new StoreRules(builtInRulesData);

  #tracked: ReadonlySet<string> | undefined;
  #sortedTracked: readonly string[] | undefined;
  readonly #sources: readonly { readonly base: string; readonly rules: Ignore }[];
  readonly #folders = new Map<string, FolderVerdict>();
  readonly #nested: readonly {
    readonly at: string;
    readonly below: string;
    readonly rules: StoreRules;
    readonly isSubmodule: boolean;
  }[];

  constructor(readonly data: StoreRulesData) {
    // Strongest first: the first source with a verdict decides.
    this.#sources = [...data.sources]
      .sort((a, b) => b.precedence - a.precedence)
      .map((source) => ({ base: source.base, rules: ignore().add(source.patterns) }));
    // In string order of the folder and a '/', for the binary search below.
    this.#nested = (data.nested ?? [])
      .map((item) => ({
        at: item.at,
        below: `${item.at}/`,
        rules: StoreRules.of(item.rules),
        isSubmodule: item.kind !== 'clone',
      }))
      .sort((a, b) => (a.below < b.below ? -1 : a.below > b.below ? 1 : 0));
  }

  /** The nested repository of this level `rel` lies in (its rules, and `rel` relative to it), or undefined; `rel` may be its folder ('' then). */
  #inNested(rel: string): { readonly rules: StoreRules; readonly rel: string } | undefined {
    const within = `${rel}/`;
    // The last nested repository whose folder and '/' sort at or before `rel/`: the only one that can hold it,
    // since none lies inside another at one level (a gitlink is a leaf of its index; a clone inside a clone is
    // that clone's).
    let low = 0;
    let high = this.#nested.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.#nested[middle] as { readonly below: string }).below <= within) low = middle + 1;
      else high = middle;
    }
    const nested = this.#nested[low - 1];
    if (nested === undefined || !within.startsWith(nested.below)) return undefined;
    if (rel === nested.at) return { rules: nested.rules, rel: '' };
    // Its own repositories inside it are its to find (a file its index tracks below one of them stays stored).
    return { rules: nested.rules, rel: rel.slice(nested.below.length) };
  }

  /** The rules from their data (the same object when they are the built-in ones). */
  static of(data: StoreRulesData): StoreRules {
    return data.key === builtInRulesData.key ? StoreRules.builtIn : new StoreRules(data);
  }

  get key(): string {
    return this.data.key;
  }

  /** Whether `rel` is a tracked path (the set is made on the first question: a walk asks of every file). */
  #isTracked(rel: string): boolean {
    this.#tracked ??= new Set(this.data.tracked);
    return this.#tracked.has(rel);
  }

  /**
   * Whether a tracked file is stored somewhere below this folder, relative to the directory. Asked
   * only of folders a rule excludes (few), so it searches the tracked paths in order rather than
   * keep every tracked folder: git's index order already is (one pass checks), else a sorted copy.
   */
  holdsTracked(rel: string): boolean {
    const sorted = (this.#sortedTracked ??= inOrder(this.data.tracked));
    const below = `${rel}/`;
    return sorted[lowerBound(sorted, below)]?.startsWith(below) === true;
  }

  /** How many files git tracks in the directory, each nested repository's own counted (and not a submodule's folder itself). */
  trackedCount(): number {
    const nested = this.#nested.reduce((sum, item) => sum + item.rules.trackedCount(), 0);
    return this.data.tracked.length - this.#nested.filter((item) => item.isSubmodule).length + nested;
  }

  /** Every repository inside the directory with its own rules (nested ones inside theirs), outermost first. */
  nestedRepositories(): NestedRepositorySummary[] {
    return this.#nested.flatMap((item) => [
      { at: item.at, kind: item.isSubmodule ? 'submodule' : 'clone', tracked: item.rules.trackedCount() } as const,
      ...item.rules.nestedRepositories().map((inner) => ({ ...inner, at: `${item.below}${inner.at}` })),
    ]);
  }

  /** The tracked paths below folders the built-in names leave out (a watcher may not see them: each snapshot looks at them). */
  trackedInsideExcludedFolders(): string[] {
    if (!this.data.isRepository && this.#nested.length === 0) return [];
    // A nested repository's files count with their whole path: a submodule inside `build/` is not watched either.
    return this.#trackedPaths().filter((rel) =>
      rel
        .split('/')
        .slice(0, -1)
        .some((part) => directoryExclusion(part)),
    );
  }

  /** Every tracked path, each submodule's below its folder. */
  #trackedPaths(): readonly string[] {
    if (this.#nested.length === 0) return this.data.tracked;
    const nested = this.#nested.flatMap((item) => item.rules.#trackedPaths().map((rel) => `${item.below}${rel}`));
    return [...this.data.tracked, ...nested];
  }

  #ignoreVerdict(rel: string, isFolder: boolean): IgnoreVerdict {
    const full = this.data.prefix + rel;
    for (const source of this.#sources) {
      if (source.base !== '' && !full.startsWith(`${source.base}/`)) continue;
      const local = source.base === '' ? full : full.slice(source.base.length + 1);
      const verdict = source.rules.test(isFolder ? `${local}/` : local);
      if (verdict.ignored) return 'ignored';
      if (verdict.unignored) return 'unignored';
    }
    return 'none';
  }

  #folderVerdict(rel: string): FolderVerdict {
    if (rel === '') return walk;
    const known = this.#folders.get(rel);
    if (known !== undefined) return known;
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    const parent = this.#folderVerdict(parentOf(rel));
    let reason: SkipReason | undefined;
    if (isVcsName(name)) reason = 'vcs';
    else if (parent.kind !== 'walk') reason = parent.reason;
    else {
      const verdict = this.#ignoreVerdict(rel, true);
      reason = verdict === 'ignored' ? 'excluded' : verdict === 'unignored' ? undefined : directoryExclusion(name);
    }
    const decided: FolderVerdict =
      reason === undefined
        ? walk
        : reason !== 'vcs' && this.holdsTracked(rel)
          ? { kind: 'tracked-only', reason }
          : { kind: 'skip', reason };
    this.#folders.set(rel, decided);
    return decided;
  }

  /** Why the folder `rel` (relative to the directory) is not walked, or undefined when it is. */
  folderExclusion(rel: string, name: string): SkipReason | undefined {
    if (this.#nested.length > 0) {
      const nested = this.#inNested(rel);
      // A nested repository's own folder is walked; what is inside follows its rules, but for what this index tracks.
      if (nested !== undefined) {
        const reason = nested.rel === '' ? undefined : nested.rules.folderExclusion(nested.rel, name);
        return reason === undefined || reason === 'vcs' || !this.holdsTracked(rel) ? reason : undefined;
      }
    }
    if (!this.data.isRepository) return directoryExclusion(name);
    const verdict = this.#folderVerdict(rel);
    return verdict.kind === 'skip' ? verdict.reason : undefined;
  }

  /** Why the file (or symlink) `rel` is not stored, or undefined when it is; its folder is walked. */
  fileExclusion(rel: string, name: string): SkipReason | undefined {
    if (this.#nested.length > 0) {
      const nested = this.#inNested(rel);
      // A file this index still tracks (from before its folder became a repository of its own) is stored too.
      if (nested !== undefined && nested.rel !== '') {
        const reason = nested.rules.fileExclusion(nested.rel, name);
        return reason === undefined || reason === 'vcs' || !this.#isTracked(rel) ? reason : undefined;
      }
    }
    if (!this.data.isRepository) return fileExclusion(name);
    if (isVcsName(name)) return 'vcs';
    if (isAlwaysExcludedFileName(name)) return 'excluded';
    if (this.#isTracked(rel)) return undefined;
    const parent = this.#folderVerdict(parentOf(rel));
    if (parent.kind !== 'walk') return parent.reason;
    const verdict = this.#ignoreVerdict(rel, false);
    return verdict === 'ignored' ? 'excluded' : verdict === 'unignored' ? undefined : fileExclusion(name);
  }

  /** Why a path (a folder on the way, or itself, judged as a folder or a file) is not stored, or undefined when it is. */
  pathExclusion(rel: string, isFolder: boolean): SkipReason | undefined {
    const parts = rel.split('/').filter((part) => part !== '' && part !== '.');
    let folder = '';
    for (const part of parts.slice(0, -1)) {
      folder = folder === '' ? part : `${folder}/${part}`;
      const reason = this.folderExclusion(folder, part);
      if (reason !== undefined) return reason;
    }
    const name = parts.at(-1);
    if (name === undefined) return undefined;
    const clean = parts.join('/');
    return isFolder ? this.folderExclusion(clean, name) : this.fileExclusion(clean, name);
  }
}
