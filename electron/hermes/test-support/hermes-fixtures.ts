import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dirHash } from '../../git-store';

/**
 * Hermes Agent's checkpoint stores, made the way Hermes makes them (tools/checkpoint_manager.py):
 * git's CLI with the user's configuration hidden, a bare shared store with a private index per
 * project, plumbing commits, a compare-and-swap `update-ref`; and the pre-v2 shadow repositories.
 */

/** Hermes's default `info/exclude` (its DEFAULT_EXCLUDES). */
export const hermesDefaultExcludes = [
  'node_modules/',
  'dist/',
  'build/',
  'target/',
  'out/',
  '.next/',
  '.nuxt/',
  '__pycache__/',
  '*.pyc',
  '*.pyo',
  '.cache/',
  '.pytest_cache/',
  '.mypy_cache/',
  '.ruff_cache/',
  'coverage/',
  '.coverage',
  '.venv/',
  'venv/',
  'env/',
  '.git/',
  '.hg/',
  '.svn/',
  '.worktrees/',
  '*.so',
  '*.dylib',
  '*.dll',
  '*.o',
  '*.a',
  '*.jar',
  '*.class',
  '*.exe',
  '*.obj',
  '*.mp4',
  '*.mov',
  '*.mkv',
  '*.webm',
  '*.zip',
  '*.tar',
  '*.tar.gz',
  '*.tgz',
  '*.7z',
  '*.rar',
  '*.iso',
  '.env',
  '.env.*',
  '.env.local',
  '.env.*.local',
  '.DS_Store',
  'Thumbs.db',
  '*.log',
];

/** The environment Hermes runs git with: no global or system configuration. */
function isolatedEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const leaking = new Set([
    'GIT_DIR',
    'GIT_WORK_TREE',
    'GIT_INDEX_FILE',
    'GIT_NAMESPACE',
    'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  ]);
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !leaking.has(key)));
  return {
    ...inherited,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_SYSTEM: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    ...extra,
  };
}

/** Runs git as Hermes does; returns trimmed stdout, or throws with stderr. */
export function hermesGit(
  args: readonly string[],
  options: { readonly env?: NodeJS.ProcessEnv; readonly cwd?: string } = {},
): string {
  return execFileSync('git', args, {
    env: isolatedEnv(options.env),
    cwd: options.cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
  }).trim();
}

/** Like hermesGit, but returns the exit code instead of throwing (for `diff-index --quiet`). */
function hermesGitStatus(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): number {
  try {
    execFileSync('git', args, { env: isolatedEnv(env), cwd, stdio: 'ignore' });
    return 0;
  } catch (error) {
    return (error as { status?: number }).status ?? 1;
  }
}

/** The shared store of a Hermes home. */
export function sharedStore(hermesHome: string): string {
  return path.join(hermesHome, 'checkpoints', 'store');
}

/** `_init_store`: the bare store, its folders, its config and its exclude file. */
export function initSharedStore(hermesHome: string): string {
  const store = sharedStore(hermesHome);
  if (existsSync(path.join(store, 'HEAD'))) return store;
  mkdirSync(path.join(store, 'indexes'), { recursive: true });
  mkdirSync(path.join(store, 'projects'), { recursive: true });
  hermesGit(['init', '--bare', '--quiet', store]);
  for (const [key, value] of [
    ['user.email', 'hermes@local'],
    ['user.name', 'Hermes Checkpoint'],
    ['commit.gpgsign', 'false'],
    ['tag.gpgSign', 'false'],
    ['gc.auto', '0'],
  ]) {
    hermesGit(['--git-dir', store, 'config', key ?? '', value ?? '']);
  }
  mkdirSync(path.join(store, 'info'), { recursive: true });
  writeFileSync(path.join(store, 'info', 'exclude'), `${hermesDefaultExcludes.join('\n')}\n`);
  return store;
}

/** When a commit is dated (`@<seconds> +0000`); default now. */
export interface HermesCommitOptions {
  readonly seconds?: number;
}

function dateEnv(options: HermesCommitOptions): NodeJS.ProcessEnv {
  if (options.seconds === undefined) return {};
  const date = `@${options.seconds} +0000`;
  return { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
}

/**
 * `CheckpointManager._take` on the shared store: seed the project's index from its ref, `add -A`,
 * skip when nothing changed, `write-tree`, `commit-tree`, compare-and-swap `update-ref`, and the
 * project record. Returns the new commit id, or undefined when nothing changed.
 */
export function hermesSharedCheckpoint(
  hermesHome: string,
  workdir: string,
  reason: string,
  options: HermesCommitOptions = {},
): string | undefined {
  const store = initSharedStore(hermesHome);
  const hash = dirHash(workdir);
  const ref = `refs/hermes/${hash}`;
  const index = path.join(store, 'indexes', hash);
  const env = { GIT_DIR: store, GIT_WORK_TREE: workdir, GIT_INDEX_FILE: index, ...dateEnv(options) };
  let head: string | undefined;
  try {
    head = hermesGit(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { env, cwd: workdir });
  } catch {
    head = undefined;
  }
  if (head !== undefined && existsSync(index)) hermesGit(['read-tree', head], { env, cwd: workdir });
  hermesGit(['add', '-A'], { env, cwd: workdir });
  if (head !== undefined && hermesGitStatus(['diff-index', '--cached', '--quiet', head], env, workdir) === 0)
    return undefined;
  const tree = hermesGit(['write-tree'], { env, cwd: workdir });
  const commit = hermesGit(
    ['commit-tree', tree, ...(head === undefined ? [] : ['-p', head]), '-m', reason, '--no-gpg-sign'],
    { env, cwd: workdir },
  );
  hermesGit(['update-ref', ref, commit, ...(head === undefined ? [] : [head])], { env, cwd: workdir });
  const now = options.seconds ?? Date.now() / 1000;
  const record = path.join(store, 'projects', `${hash}.json`);
  const created = existsSync(record)
    ? (JSON.parse(readFileSync(record, 'utf8')) as { created_at: number }).created_at
    : now;
  writeFileSync(record, JSON.stringify({ workdir, created_at: created, last_touch: now }));
  return commit;
}

/**
 * `Pruner.trim`: keeps the newest `keep` checkpoints by rebuilding them with `commit-tree`
 * (dates and messages kept, so every id changes), then moves the ref with a compare-and-swap.
 */
export function hermesTrim(hermesHome: string, workdir: string, keep: number): void {
  const store = sharedStore(hermesHome);
  const ref = `refs/hermes/${dirHash(workdir)}`;
  const commits = hermesGit(['--git-dir', store, 'rev-list', '--reverse', ref]).split('\n');
  let parent: string | undefined;
  for (const sha of commits.slice(-keep)) {
    const [tree = '', authorDate = '', committerDate = '', message = ''] = hermesGit([
      '--git-dir',
      store,
      'log',
      '-1',
      '--format=%T%x00%aI%x00%cI%x00%s',
      sha,
    ]).split('\0');
    parent = hermesGit(
      [
        '--git-dir',
        store,
        'commit-tree',
        tree,
        '--no-gpg-sign',
        '-m',
        message,
        ...(parent === undefined ? [] : ['-p', parent]),
      ],
      {
        env: { GIT_AUTHOR_DATE: authorDate, GIT_COMMITTER_DATE: committerDate },
      },
    );
  }
  hermesGit(['--git-dir', store, 'update-ref', ref, parent ?? '', commits[commits.length - 1] ?? '']);
}

/** A pre-v2 shadow repository's folder (`checkpoints/<hash16>`). */
export function legacyRepo(hermesHome: string, workdir: string): string {
  return path.join(hermesHome, 'checkpoints', dirHash(workdir));
}

/**
 * Pre-v2 `_take`: a shadow repository per directory (`git init` with `GIT_DIR` set, identity,
 * `info/exclude`, `HERMES_WORKDIR`), then `git add -A` and `git commit` with the work tree given.
 */
export function hermesLegacyCheckpoint(
  hermesHome: string,
  workdir: string,
  reason: string,
  options: HermesCommitOptions & { readonly repo?: string } = {},
): string | undefined {
  const shadow = options.repo ?? legacyRepo(hermesHome, workdir);
  const env = { GIT_DIR: shadow, GIT_WORK_TREE: workdir, ...dateEnv(options) };
  if (!existsSync(path.join(shadow, 'HEAD'))) {
    mkdirSync(shadow, { recursive: true });
    hermesGit(['init', '--quiet'], { env, cwd: workdir });
    hermesGit(['config', 'user.email', 'hermes@local'], { env, cwd: workdir });
    hermesGit(['config', 'user.name', 'Hermes Checkpoint'], { env, cwd: workdir });
    hermesGit(['config', 'commit.gpgsign', 'false'], { env, cwd: workdir });
    mkdirSync(path.join(shadow, 'info'), { recursive: true });
    writeFileSync(path.join(shadow, 'info', 'exclude'), `${hermesDefaultExcludes.join('\n')}\n`);
    writeFileSync(path.join(shadow, 'HERMES_WORKDIR'), `${workdir}\n`);
  }
  hermesGit(['add', '-A'], { env, cwd: workdir });
  if (
    hermesGitStatus(['diff', '--cached', '--quiet'], env, workdir) === 0 &&
    hermesGitStatus(['rev-parse', '--verify', '--quiet', 'HEAD'], env, workdir) === 0
  )
    return undefined;
  hermesGit(['commit', '--quiet', '--no-gpg-sign', '--allow-empty-message', '-m', reason], { env, cwd: workdir });
  return hermesGit(['rev-parse', 'HEAD'], { env, cwd: workdir });
}

/**
 * A fingerprint of everything in a folder: every path with its type, mode, size, modification
 * time (ns) and content hash (symlinks by target). Equal fingerprints mean nothing was written,
 * renamed, touched or created there — the proof that Vigil never writes to Hermes's store.
 */
export function folderFingerprint(root: string): string {
  const hash = createHash('sha256');
  const visit = (relative: string): void => {
    const absolute = path.join(root, relative);
    const info = lstatSync(absolute, { bigint: true });
    const kind = info.isSymbolicLink() ? 'link' : info.isDirectory() ? 'dir' : info.isFile() ? 'file' : 'other';
    hash.update(`${relative}\0${kind}\0${info.mode}\0${info.size}\0${info.mtimeNs}\0${info.ino}\n`);
    if (kind === 'link') hash.update(readlinkSync(absolute));
    else if (kind === 'file') hash.update(createHash('sha256').update(readFileSync(absolute)).digest());
    else if (kind === 'dir')
      for (const name of readdirSync(absolute).sort()) visit(relative === '' ? name : path.join(relative, name));
  };
  visit('');
  return hash.digest('hex');
}
