import { copyFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { useTempFixture } from '../../test-support/temp-fixture';
import type { RulesEnvironment } from '../snapshot/repo-rules';
import { runGit } from './restore-fixtures';

/** A git repository for the repository-rules tests, and the environment that keeps the user's own rules out. */
export interface RulesRepo {
  /** The repository's work tree (`<root>/project`). */
  readonly dir: string;
  /** A throwaway home (`<root>/home`, empty): no global excludes file of the user's is read. */
  readonly environment: RulesEnvironment;
}

/**
 * Makes `<root>/project` a git repository (git's own CLI, no user or system config, see `runGit`)
 * beside an empty `<root>/home`, with the rules environment pointing there. Nothing is added yet.
 */
export function makeRulesRepo(root: string): RulesRepo {
  const dir = path.join(root, 'project');
  const home = path.join(root, 'home');
  mkdirSync(home, { recursive: true });
  runGit(['init', '-q', dir]);
  return { dir, environment: { env: { XDG_CONFIG_HOME: path.join(home, '.config') }, home } };
}

/** A rules repository in a temp folder of its own (`root`), for one test. */
export interface RulesRepoFixture extends RulesRepo {
  /** The temp folder holding the repository, its home and whatever else the test puts there. */
  readonly root: string;
}

/**
 * Registers hooks that give each test of the calling file a fresh repository made by `make` (by
 * default `makeRulesRepo`) in a new temp folder named after `prefix`, removed after the test. The
 * fields of what it returns are the current test's: read them inside a hook or a test, not before.
 */
export function useRulesRepo(prefix: string, make: (root: string) => RulesRepo = makeRulesRepo): RulesRepoFixture {
  const now = useTempFixture(prefix, (root): RulesRepoFixture => ({ root, ...make(root) }));
  return {
    get root() {
      return now().root;
    },
    get dir() {
      return now().dir;
    },
    get environment() {
      return now().environment;
    },
  };
}

/**
 * A rules repository whose `build/` is ignored (`.gitignore`: `build/`) and whose index tracks
 * `.gitignore` and `a.txt` but not `build/out.js`: what `git add -f build/out.js` then changes.
 */
export function makeIgnoredBuildRepo(root: string): RulesRepo {
  const repo = makeRulesRepo(root);
  writeFileSync(path.join(repo.dir, '.gitignore'), 'build/\n');
  mkdirSync(path.join(repo.dir, 'build'));
  writeFileSync(path.join(repo.dir, 'build', 'out.js'), 'shipped\n');
  writeFileSync(path.join(repo.dir, 'a.txt'), 'a\n');
  runGit(['add', '.gitignore', 'a.txt'], { cwd: repo.dir });
  return repo;
}

/** Swaps the index of an ignored-build repository between its two versions, by rename as git writes it. */
export interface IndexSwap {
  /** Puts a new copy of the index without `build/out.js` in place (a new inode each time). */
  installWithout(): void;
  /**
   * Puts the index without `build/out.js` in place, starts `read`, lets `ticks` turns of the event
   * loop pass, then puts the index with `build/out.js` (`git add -f`) in place and waits for `read`.
   */
  swapInDuring(ticks: number, read: () => Promise<unknown>): Promise<void>;
}

/**
 * Keeps both versions of the index of `makeIgnoredBuildRepo`'s repository `dir`, as files in `root`
 * (`index-without`, `index-with`), for swapping in at chosen points of a read.
 */
export function prepareIndexSwap(root: string, dir: string): IndexSwap {
  const indexFile = path.join(dir, '.git', 'index');
  const without = path.join(root, 'index-without');
  const withFile = path.join(root, 'index-with');
  copyFileSync(indexFile, without);
  runGit(['add', '-f', '.gitignore', 'a.txt', 'build/out.js'], { cwd: dir, env: { GIT_INDEX_FILE: withFile } });
  /** Puts a copy of `source` in place of the index by rename, as git does (a new inode each time). */
  const install = (source: string): void => {
    copyFileSync(source, `${indexFile}.swap`);
    renameSync(`${indexFile}.swap`, indexFile);
  };
  return {
    installWithout: () => install(without),
    async swapInDuring(ticks, read) {
      install(without); // the same paths in another file: the read loads the index again
      const reading = read();
      for (let tick = 0; tick < ticks; tick += 1) await new Promise((resolve) => setImmediate(resolve));
      install(withFile);
      await reading;
    },
  };
}
