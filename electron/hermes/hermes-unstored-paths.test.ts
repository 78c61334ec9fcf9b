import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pathExclusion } from '../checkpoints';
import { makeTempDir } from '../test-support/temp-dir';
import { hermesUnstoredPaths } from './hermes-unstored-paths';
import { hermesGit, hermesSharedCheckpoint, initSharedStore } from './test-support/hermes-fixtures';

let base: string;
let remove: () => Promise<void>;
let project: string;
let home: string;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-hermes-ignore-'));
  project = path.join(base, 'project');
  home = path.join(base, 'hermes');
});
afterEach(async () => {
  await remove();
});

function write(files: readonly string[]): void {
  for (const relative of files) {
    mkdirSync(path.dirname(path.join(project, relative)), { recursive: true });
    writeFileSync(path.join(project, relative), `${relative}\n`);
  }
}

/** Every file on disk that Vigil's own rules would store (what a restore could act on). */
function candidates(): string[] {
  return readdirSync(project, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(project, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((relative) => pathExclusion(relative) === undefined)
    .sort();
}

describe("what Hermes's git add -A leaves out", () => {
  it('agrees with git itself on .gitignore files at every depth, negations, folder-only patterns, info/exclude and the global excludes file', async () => {
    write([
      'keep.py',
      'debug.tmp',
      'notes/keep.tmp',
      'notes/todo.md',
      'data/raw.csv',
      'data/keep/also.csv',
      'src/app.py',
      'src/generated.py',
      'src/deep/x.gen',
      'src/deep/y.py',
      'build.cfg',
      'logs.txt',
      'secret.key',
      'private/readme.md',
      'coverage/index.html',
      'env/bin/activate',
      'a/b/c/deep.bak',
      'a/b/keep.bak',
      'a/.gitignore',
    ]);
    // Negations across sources: notes/ re-includes what the root ignores, the root re-includes what info/exclude ignores.
    writeFileSync(
      path.join(project, '.gitignore'),
      ['*.tmp', 'data/', '!data/keep/', '/logs.txt', 'private', '!env/', ''].join('\n'),
    );
    writeFileSync(path.join(project, 'notes', '.gitignore'), '!keep.tmp\n');
    writeFileSync(path.join(project, 'src', '.gitignore'), 'generated.py\n*.gen\n');
    writeFileSync(path.join(project, 'a', '.gitignore'), '*.bak\n!b/keep.bak\n');
    mkdirSync(path.join(base, 'xdg', 'git'), { recursive: true });
    writeFileSync(path.join(base, 'xdg', 'git', 'ignore'), '*.key\n');
    write(['vendor/lib/code.c']);
    hermesGit(['init', '--quiet', path.join(project, 'vendor', 'lib')]);
    hermesGit(['-C', path.join(project, 'vendor', 'lib'), '-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A']);
    hermesGit([
      '-C',
      path.join(project, 'vendor', 'lib'),
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t',
      'commit',
      '--quiet',
      '-m',
      'x',
    ]);

    const env = { XDG_CONFIG_HOME: path.join(base, 'xdg') };
    const store = initSharedStore(home);
    const commit = hermesSharedCheckpoint(home, project, 'before write_file') ?? '';
    const stored = new Set(
      hermesGit(['--git-dir', store, 'ls-tree', '-r', '--name-only', commit], { env }).split('\n'),
    );
    // The shared store's checkpoint above ran without XDG_CONFIG_HOME; run git add again with it, in a scratch index.
    const withGlobal = new Set(
      hermesGit(['ls-files', '--cached', '--others', '--exclude-standard'], {
        env: { ...env, GIT_DIR: store, GIT_WORK_TREE: project, GIT_INDEX_FILE: path.join(base, 'scratch-index') },
        cwd: project,
      }).split('\n'),
    );
    expect(stored.has('secret.key')).toBe(true);
    expect(withGlobal.has('secret.key')).toBe(false);

    const skipped = await hermesUnstoredPaths(project, store, { env, home: base });
    const covered = (file: string): boolean =>
      skipped.some((item) => item.path === file || (item.path.endsWith('/') && file.startsWith(item.path)));
    const expectedUnstored = candidates().filter((file) => !withGlobal.has(file));
    // Everything git leaves out is covered, so a restore never deletes it. The one difference errs the
    // safe way: below a folder that info/exclude ignores and .gitignore re-includes (env/), files stay
    // "not stored", so a restore leaves them alone rather than deleting them.
    expect(candidates().filter(covered)).toEqual([...expectedUnstored, 'env/bin/activate'].sort());
    expect(skipped).toContainEqual({ path: 'vendor/lib/', reason: 'vcs' });
    expect(skipped).toContainEqual({ path: 'data/', reason: 'excluded' });
    expect(skipped).toContainEqual({ path: 'coverage/', reason: 'excluded' });
  });
});
