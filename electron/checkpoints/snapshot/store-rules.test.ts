import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger, type Logger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { runGit, writeFiles } from '../test-support/restore-fixtures';
import { readGitIndexPaths } from './git-index';

/**
 * What a snapshot stores inside a git repository (design.md §4, "Store what the project holds"):
 * every tracked file whatever its name, untracked files by the repository's ignore rules, Vigil's
 * built-in names only where no rule speaks. Each tree is checked with git's own CLI.
 */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let home: string;
let engine: CheckpointService;
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-store-rules-'));
  dir = path.join(root, 'project');
  home = path.join(root, 'home');
  mkdirSync(dir, { recursive: true });
  mkdirSync(home, { recursive: true });
  engine = newEngine();
});
afterEach(async () => {
  await engine.dispose();
  await remove();
});

function newEngine(logger = silentLogger): CheckpointService {
  return new CheckpointService({
    root: path.join(home, 'vigil', 'checkpoints'),
    logger,
    rulesEnvironment: { env: { XDG_CONFIG_HOME: path.join(home, '.config') }, home },
  });
}

/** The paths of a checkpoint's tree, as git's own CLI lists them. */
async function storedPaths(service = engine): Promise<string[]> {
  const outcome = await service.checkpoint(dir, { reason: 'test' });
  const tree = outcome.kind === 'created' ? outcome.checkpoint.tree : undefined;
  if (tree === undefined) throw new Error(`expected a new checkpoint, got ${outcome.kind}`);
  const listed = runGit(['--git-dir', service.gitdir, 'ls-tree', '-r', '--name-only', tree]);
  return listed === '' ? [] : listed.split('\n').sort();
}

function gitInit(): void {
  runGit(['init', '-q', dir]);
}

describe('inside a git repository', () => {
  it('stores every tracked file whatever its name, and leaves untracked ones to the ignore rules', async () => {
    gitInit();
    writeFiles(dir, {
      'img/logo.png': { content: png },
      'fonts/a.woff2': { content: png },
      'docs/guide.pdf': { content: png },
      'data/small.sqlite': { content: png },
      '.envrc': 'export A=1\n',
      'build/icon.icns': { content: png },
      'src/a.ts': 'a\n',
      '.gitignore': 'secret.txt\nlogs/\n',
    });
    runGit(['add', '-A'], { cwd: dir });
    writeFiles(dir, {
      'secret.txt': 'ignored by .gitignore\n',
      'logs/today.txt': 'ignored folder\n',
      'new.txt': 'untracked, not ignored\n',
      'new.png': { content: png },
      'build/out.js': 'untracked in a built-in folder\n',
      'node_modules/dep/index.js': 'dep\n',
    });
    expect(await storedPaths()).toEqual([
      '.envrc',
      '.gitignore',
      'build/icon.icns',
      'data/small.sqlite',
      'docs/guide.pdf',
      'fonts/a.woff2',
      'img/logo.png',
      'new.txt',
      'src/a.ts',
    ]);
    const status = await engine.status(dir);
    expect(status.directories[0]?.rules).toEqual({ kind: 'repository', repository: dir, tracked: 8, warnings: [] });
    expect(status.directories[0]?.skipped.map((item) => item.path)).toEqual([
      '.git/',
      'build/out.js',
      'logs/',
      'new.png',
      'node_modules/',
      'secret.txt',
    ]);
  });

  it('a ! pattern keeps an untracked file the built-in names would leave out; info/exclude and the global file count', async () => {
    gitInit();
    writeFiles(dir, {
      '.gitignore': '!keep.png\n',
      'keep.png': { content: png },
      'drop.png': { content: png },
      'local.txt': 'in info/exclude\n',
      'global.txt': 'in the global excludes file\n',
      'kept.txt': 'kept\n',
    });
    writeFileSync(path.join(dir, '.git', 'info', 'exclude'), 'local.txt\n');
    writeFiles(home, { '.config/git/ignore': 'global.txt\n' });
    expect(await storedPaths()).toEqual(['.gitignore', 'keep.png', 'kept.txt']);
  });

  it('a change of the rules is seen at the next checkpoint: a file git add-s is stored, one newly ignored leaves', async () => {
    gitInit();
    writeFiles(dir, { 'a.txt': 'a\n', 'logo.png': { content: png }, 'notes.txt': 'n\n' });
    expect(await storedPaths()).toEqual(['a.txt', 'notes.txt']);
    runGit(['add', 'logo.png'], { cwd: dir });
    writeFiles(dir, { '.gitignore': 'notes.txt\n' });
    expect(await storedPaths()).toEqual(['.gitignore', 'a.txt', 'logo.png']);
  });

  it('a checkpoint of a folder inside the repository follows the rules of the folders above it', async () => {
    gitInit();
    writeFiles(dir, {
      '.gitignore': 'sub/tmp/\n*.bak\n',
      'sub/a.txt': 'a\n',
      'sub/tmp/x.txt': 'x\n',
      'sub/b.bak': 'b\n',
    });
    writeFiles(dir, { 'sub/img/logo.png': { content: png } });
    runGit(['add', '.gitignore', 'sub/img/logo.png'], { cwd: dir });
    const sub = path.join(dir, 'sub');
    const outcome = await engine.checkpoint(sub, { reason: 'test' });
    if (outcome.kind !== 'created') throw new Error('expected a checkpoint');
    const listed = runGit(['--git-dir', engine.gitdir, 'ls-tree', '-r', '--name-only', outcome.checkpoint.tree]);
    expect(listed.split('\n').sort()).toEqual(['a.txt', 'img/logo.png']);
  });

  it('a folder below nested repositories follows the nearest one: a .git file naming its git directory counts, one naming none does not', async () => {
    gitInit();
    writeFiles(dir, {
      '.gitignore': 'outer-*\n',
      'inner/work/deep/inner-b.txt': 'b\n',
      'inner/work/deep/outer-c.txt': 'c\n',
    });
    const inner = path.join(dir, 'inner');
    // The inner repository keeps its git directory elsewhere (as a linked worktree or a submodule does).
    runGit(['init', '-q', '--separate-git-dir', path.join(root, 'inner.git'), inner]);
    writeFiles(inner, { '.gitignore': 'inner-*\n' });
    // A .git file that names no git directory, between the checkpointed folder and the inner repository.
    writeFiles(inner, { 'work/.git': 'not a gitdir line\n' });
    const deep = path.join(inner, 'work', 'deep');
    const outcome = await engine.checkpoint(deep, { reason: 'test' });
    if (outcome.kind !== 'created') throw new Error('expected a checkpoint');
    const listed = runGit(['--git-dir', engine.gitdir, 'ls-tree', '-r', '--name-only', outcome.checkpoint.tree]);
    // The inner repository's rule applies, the outer one's does not.
    expect(listed.split('\n').sort()).toEqual(['outer-c.txt']);
  });

  it('reads the index as git does: v2, v3 (intent-to-add) and v4 list what git ls-files lists', () => {
    gitInit();
    const names = Array.from({ length: 40 }, (_, index) => `deep/folder/name-${index}.txt`);
    writeFiles(dir, Object.fromEntries([...names, 'a.txt', 'é/ü.txt'].map((name) => [name, `${name}\n`])));
    runGit(['add', '-A'], { cwd: dir });
    writeFiles(dir, { 'intent.txt': 'i\n' });
    runGit(['add', '-N', 'intent.txt'], { cwd: dir });
    for (const version of ['2', '3', '4']) {
      runGit(['update-index', '--index-version', version], { cwd: dir });
      const read = readGitIndexPaths(readFileSync(path.join(dir, '.git', 'index')));
      const expected = runGit(['-c', 'core.quotepath=off', 'ls-files'], { cwd: dir }).split('\n');
      expect('paths' in read && read.paths).toEqual(expected);
    }
  });
});

describe('bad input falls back to the built-in rules, with a warning naming the file', () => {
  it('a damaged index: built-in names, and the warning names the index', async () => {
    const warnings: string[] = [];
    await engine.dispose();
    const logger: Logger = { ...silentLogger, warn: (message) => void warnings.push(message) };
    engine = newEngine(logger);
    gitInit();
    writeFiles(dir, { 'a.txt': 'a\n', 'logo.png': { content: png } });
    runGit(['add', '-A'], { cwd: dir });
    const index = path.join(dir, '.git', 'index');
    const bytes = readFileSync(index);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff;
    writeFileSync(index, bytes);
    expect(await storedPaths()).toEqual(['a.txt']);
    expect(warnings.some((message) => message.includes(index) && message.includes('built-in'))).toBe(true);
    const loaded = await engine.storeRules(dir);
    expect(loaded.warnings.join('\n')).toContain(index);
    const status = await engine.status(dir);
    expect(status.directories[0]?.rules).toMatchObject({ kind: 'built-in', repository: dir });
    expect(status.directories[0]?.rules?.warnings.join('\n')).toContain(index);
  });

  it('a .gitignore that is not text: its paths follow the built-in names, and the warning names it', async () => {
    gitInit();
    writeFiles(dir, {
      '.gitignore': { content: Buffer.from([0x2a, 0, 0x0a]) },
      'a.txt': 'a\n',
      'b.png': { content: png },
    });
    expect(await storedPaths()).toEqual(['.gitignore', 'a.txt']);
    const loaded = await engine.storeRules(dir);
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toContain(path.join(dir, '.gitignore'));
    rmSync(path.join(dir, '.gitignore'));
  });
});

describe('outside a repository', () => {
  it('the built-in names apply as before', async () => {
    writeFiles(dir, { 'a.txt': 'a\n', 'logo.png': { content: png }, '.envrc': 'x\n', 'node_modules/x.js': 'x\n' });
    expect(await storedPaths()).toEqual(['a.txt']);
  });
});
