import { createHash } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { excludesFileIn, gitdirAt, holdsPatterns, readGitText, readPatterns } from './git-files';
import type { GitIndexPaths } from './git-index';
import { fileIdentity as identity, readIndexFile, type IndexFileRead, type SharedIndexFile } from './read-index-file';
import { StoreRules, type IgnoreSourceData, type StoreRulesData } from './store-rules';
import { readRememberedFolders, rememberFolders } from './nested-repositories';
import { SubmoduleRules, submodulesBelow } from './submodules';

/** How deep repositories inside repositories are followed (a real project has two or three levels). */
const maxSubmoduleDepth = 8;

/** The rules in force for a directory, and what went wrong reading them (each warning names its file). */
export interface LoadedRules {
  readonly rules: StoreRules;
  /** The repository's top folder, when the directory is inside one. */
  readonly repository?: string;
  readonly warnings: readonly string[];
}

/** Where the repository holding a directory keeps its files. */
interface RepositoryFiles {
  readonly top: string;
  readonly gitdir: string;
  /** Where `info/exclude` and the shared config live (a linked worktree's main repository). */
  readonly commondir: string;
}

/** What the rules depend on, for the cheap "did anything change?" check: the environment it reads git's settings from. */
export interface RulesEnvironment {
  readonly env: NodeJS.ProcessEnv;
  readonly home?: string;
}

function toPosix(relative: string): string {
  return relative.split(path.sep).join('/');
}

/** The folders above `dir`, nearest first, up to the root. */
function foldersAbove(dir: string): string[] {
  const folders: string[] = [];
  for (let folder = dir; path.dirname(folder) !== folder; folder = path.dirname(folder))
    folders.push(path.dirname(folder));
  return folders;
}

/** The repository files of the git directory at `top`. */
async function repositoryAt(top: string, gitdir: string): Promise<RepositoryFiles> {
  const common = (await readGitText(path.join(gitdir, 'commondir'))).trim();
  return { top, gitdir, commondir: common === '' ? gitdir : path.resolve(gitdir, common) };
}

/**
 * The repository holding `dir`: the nearest folder at or above it with a `.git` folder, or a `.git`
 * file naming one. `dir` itself is looked at first (most projects are their repository's top); the
 * folders above it all at once, not one wait for the disk per level (every checkpoint asks).
 */
async function findRepository(dir: string): Promise<RepositoryFiles | undefined> {
  const lstatGit = (folder: string): Promise<Stats | undefined> =>
    lstat(path.join(folder, '.git')).catch(() => undefined);
  const own = await gitdirAt(dir, await lstatGit(dir));
  if (own !== undefined) return repositoryAt(dir, own);
  const above = foldersAbove(dir);
  const infos = await Promise.all(above.map(lstatGit));
  for (const [index, folder] of above.entries()) {
    const gitdir = await gitdirAt(folder, infos[index]);
    if (gitdir !== undefined) return repositoryAt(folder, gitdir);
  }
  return undefined;
}

/** git's global excludes file: `core.excludesFile` (repository config over the user's), else `$XDG_CONFIG_HOME/git/ignore`. */
async function globalExcludesFile(repo: RepositoryFiles, environment: RulesEnvironment): Promise<string> {
  const home = environment.home ?? os.homedir();
  const xdg = environment.env['XDG_CONFIG_HOME'];
  const config = xdg !== undefined && xdg !== '' ? xdg : path.join(home, '.config');
  const sources = [
    path.join(config, 'git', 'config'),
    path.join(home, '.gitconfig'),
    path.join(repo.commondir, 'config'),
  ];
  const texts = await Promise.all(sources.map((source) => readGitText(source)));
  let file: string | undefined;
  for (const text of texts) file = (text === '' ? undefined : excludesFileIn(text, home)) ?? file;
  return file ?? path.join(config, 'git', 'ignore');
}

/** The tracked paths below the directory and every tracked `.gitignore` that applies to it (top-relative), from the index. */
interface IndexView {
  readonly tracked: string[];
  readonly gitignores: string[];
}

function viewOfIndex(paths: readonly string[], prefix: string): IndexView {
  const tracked: string[] = [];
  const gitignores: string[] = [];
  for (const item of paths) {
    if (prefix === '' || item.startsWith(prefix)) {
      const below = prefix === '' ? item : item.slice(prefix.length);
      // A sparse index's folder entry ends with '/'.
      tracked.push(below.endsWith('/') ? below.slice(0, -1) : below);
    }
    if (item === '.gitignore' || item.endsWith('/.gitignore')) {
      const base = item.slice(0, -'.gitignore'.length);
      if (base === '' || prefix.startsWith(base) || item.startsWith(prefix)) gitignores.push(item);
    }
  }
  return { tracked, gitignores };
}

/**
 * The rules of one directory, re-read only when something they come from changed: the git index
 * (its identity: mtime, ctime, size, inode) and a split index's shared index, the ignore files,
 * git's config. A checkpoint asks for them every time; an unchanged repository costs a few `stat`
 * calls, never a `git` process.
 */
export class RepoRulesCache {
  #fingerprint: string | undefined;
  #loaded: LoadedRules = { rules: StoreRules.builtIn, warnings: [] };
  #index: { readonly identity: string; readonly shared?: SharedIndexFile; readonly read: GitIndexPaths } | undefined;
  #watchedFiles: readonly string[] = [];
  /** The submodules inside the directory (relative to it), as the last load found them. */
  #submodules: readonly string[] = [];
  #nested: SubmoduleRules | undefined;
  /** The folders holding a `.git` that the last walk found (relative, sorted), read first from `remembered`. */
  #discovered: readonly string[] | Promise<readonly string[]> = [];

  constructor(
    readonly dir: string,
    private readonly environment: RulesEnvironment,
    private readonly depth = 0,
    /** The file the folders a walk found are remembered in, for the next process (the directory's top only). */
    private readonly remembered?: string,
  ) {
    if (remembered !== undefined) this.#discovered = readRememberedFolders(remembered);
  }

  /** The folders holding a `.git` the rules were last asked to judge by their own repositories' rules. */
  async discovered(): Promise<readonly string[]> {
    return this.#discovered;
  }

  /** Takes the folders holding a `.git` that a walk found (sorted): their repositories' rules apply from the next `current()`. */
  discover(folders: readonly string[]): void {
    this.#discovered = folders;
  }

  /** Takes and remembers them for the next process (`discover`, then an atomic write of the small file). */
  async rediscover(folders: readonly string[]): Promise<void> {
    this.#discovered = folders;
    await rememberFolders(this.remembered, folders);
  }

  /** Whether this cache reads git's settings from `environment` (another cache of the same directory may then use it). */
  readsFrom(environment: RulesEnvironment): boolean {
    return this.environment.env === environment.env && this.environment.home === environment.home;
  }

  /** The rules in force now (re-read when a file they come from changed), each submodule's inside it. */
  async current(): Promise<LoadedRules> {
    const own = await this.#own();
    const discovered = this.depth >= maxSubmoduleDepth ? [] : await this.#discovered;
    if (this.#submodules.length === 0 && discovered.length === 0) return own;
    this.#nested ??= new SubmoduleRules(
      this.dir,
      (folder) => new RepoRulesCache(folder, this.environment, this.depth + 1),
    );
    return this.#nested.around(own, this.#submodules, discovered);
  }

  async #own(): Promise<LoadedRules> {
    const repo = await findRepository(this.dir);
    if (repo === undefined) {
      this.#fingerprint = undefined;
      this.#submodules = [];
      this.#loaded = { rules: StoreRules.builtIn, warnings: [] };
      return this.#loaded;
    }
    const fingerprint = await this.#fingerprintOf(repo, this.#watchedFiles);
    if (fingerprint === this.#fingerprint) return this.#loaded;
    const loaded = await this.#load(repo);
    this.#loaded = loaded.rules;
    // Of each file as it was before this load read it: a change made during the load is seen by the next call.
    this.#fingerprint = loaded.fingerprint;
    return this.#loaded;
  }

  async #fingerprintOf(repo: RepositoryFiles, files: readonly string[]): Promise<string> {
    return fingerprintText(repo, files, await Promise.all([path.join(repo.gitdir, 'index'), ...files].map(identity)));
  }

  /** The index's paths; `id` is its identity taken before the read (the read is kept under it, and its shared index's). */
  async #indexPaths(repo: RepositoryFiles, id: string): Promise<IndexFileRead> {
    const kept = this.#index;
    if (kept?.identity === id) {
      if (kept.shared === undefined) return { read: kept.read };
      if ((await identity(kept.shared.file)) === kept.shared.identity) return { read: kept.read, shared: kept.shared };
    }
    if (id === '-') return { read: { paths: [], digest: 'no index', gitlinks: [] } };
    const loaded = await readIndexFile(repo.gitdir, path.join(repo.gitdir, 'index'));
    if (!('problem' in loaded.read)) this.#index = { identity: id, shared: loaded.shared, read: loaded.read };
    return loaded;
  }

  async #load(repo: RepositoryFiles): Promise<{ rules: LoadedRules; fingerprint: string }> {
    const prefix = path.relative(repo.top, this.dir) === '' ? '' : `${toPosix(path.relative(repo.top, this.dir))}/`;
    const indexFile = path.join(repo.gitdir, 'index');
    const home = this.environment.home ?? os.homedir();
    const xdg = this.environment.env['XDG_CONFIG_HOME'];
    const userConfig = path.join(xdg !== undefined && xdg !== '' ? xdg : path.join(home, '.config'), 'git', 'config');
    const configFiles = [userConfig, path.join(home, '.gitconfig'), path.join(repo.commondir, 'config')];
    // Identities before the reads: a file changed while it is read makes the next call read it again.
    const [indexId, ...configIds] = await Promise.all([indexFile, ...configFiles].map(identity));
    const { read: index, shared } = await this.#indexPaths(repo, indexId ?? '-');
    // A split index's shared index is watched too (its identity as taken before its read).
    const sharedFiles = shared === undefined ? [] : [shared.file];
    const sharedIds = shared === undefined ? [] : [shared.identity];
    if ('problem' in index) {
      this.#watchedFiles = [...configFiles, ...sharedFiles];
      this.#submodules = [];
      const warning = `The git index ${indexFile} ${index.problem}: Vigil's built-in exclusion rules apply to ${this.dir} until git can read it (${index.fix ?? 'run "git status" there'}).`;
      const rules = { rules: StoreRules.builtIn, repository: repo.top, warnings: [warning] };
      return {
        rules,
        fingerprint: fingerprintText(repo, this.#watchedFiles, [indexId ?? '-', ...configIds, ...sharedIds]),
      };
    }
    const view = viewOfIndex(index.paths, prefix);
    // Ancestors' and the top's .gitignore even when untracked (a new repository's first one usually is).
    const ancestors = [
      '',
      ...prefix
        .split('/')
        .filter(Boolean)
        .map((_, i, parts) => `${parts.slice(0, i + 1).join('/')}/`),
    ];
    const gitignores = [...new Set([...view.gitignores, ...ancestors.map((base) => `${base}.gitignore`)])];
    const candidates: { file: string; base: string; precedence: number; isInWorkTree?: true }[] = [
      { file: await globalExcludesFile(repo, this.environment), base: '', precedence: 0 },
      { file: path.join(repo.commondir, 'info', 'exclude'), base: '', precedence: 1 },
      ...gitignores.map((item) => {
        const base = item.slice(0, -'/.gitignore'.length);
        const depth = item.split('/').length;
        return {
          file: path.join(repo.top, ...item.split('/')),
          base: item === '.gitignore' ? '' : base,
          precedence: 1 + depth,
          isInWorkTree: true as const,
        };
      }),
    ];
    const sources: IgnoreSourceData[] = [];
    const warnings: string[] = [];
    const candidateIds = await Promise.all(candidates.map((candidate) => identity(candidate.file)));
    const reads = await Promise.all(
      candidates.map((candidate) => readPatterns(candidate.file, candidate.isInWorkTree === true)),
    );
    for (const [index, candidate] of candidates.entries()) {
      const read = reads[index];
      if (read === undefined) continue;
      if ('problem' in read)
        warnings.push(
          `${candidate.file} ${read.problem}: the paths it covers follow Vigil's built-in exclusion rules until it is fixed.`,
        );
      // A file of comments only (every repository's default info/exclude) decides nothing: no file is tested against it.
      else if (holdsPatterns(read.patterns))
        sources.push({ base: candidate.base, patterns: read.patterns, precedence: candidate.precedence });
    }
    this.#submodules = this.depth >= maxSubmoduleDepth ? [] : submodulesBelow(index.gitlinks, prefix);
    this.#watchedFiles = [...configFiles, ...sharedFiles, ...candidates.map((candidate) => candidate.file)];
    // The same index paths and patterns give the same key, so a `git add` of new content forces no walk (the
    // tracked paths are those paths below the prefix: the index's digest stands for them).
    const key = createHash('sha1')
      .update(JSON.stringify([repo.top, prefix, sources]))
      .update(index.digest)
      .digest('hex');
    const data: StoreRulesData = { key, prefix, tracked: view.tracked, sources, isRepository: true };
    return {
      rules: { rules: new StoreRules(data), repository: repo.top, warnings },
      fingerprint: fingerprintText(repo, this.#watchedFiles, [
        indexId ?? '-',
        ...configIds,
        ...sharedIds,
        ...candidateIds,
      ]),
    };
  }
}

/** What the change check compares: the repository, the files the rules came from and each one's identity (the index's first). */
function fingerprintText(repo: RepositoryFiles, files: readonly string[], ids: readonly string[]): string {
  return `${repo.top}\0${repo.gitdir}\0${files.join('\0')}\0${ids.join('\0')}`;
}
