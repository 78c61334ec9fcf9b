import { existsSync, lstatSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { seededRandom, testSeed } from '../../test-support/seeded-random';
import { runGit, writeFiles } from '../test-support/restore-fixtures';
import { expectRandomStepsAgree, useSubmoduleProject } from '../test-support/submodule-project';

/**
 * Random changes in and around repositories inside a repository that are not its submodules:
 * clones made, `git init` in an existing folder, commits in them, their `.git` or their whole
 * folder removed. After each, a watching engine (a resident core) stores the same tree as a full
 * walk by a fresh engine (a one-shot process), and that holds every file each nested repository
 * tracks that is on disk.
 */

const project = useSubmoduleProject('vigil-nested-random-');

/** Where the steps make, change and remove nested repositories (relative to the project). */
const places = ['tools', 'scratch', 'scratch/deep', 'clones/c1'];
const names = ['x.tmp', 'y.txt', 'logo.png', 'db.sqlite', 'build/o.js', 'src/b.txt'];

function isFolder(absolute: string): boolean {
  return lstatSync(absolute).isDirectory();
}

/** The files each nested repository (a folder of `places` holding a `.git`) tracks and that are on disk, by the whole path. */
function trackedInNested(dir: string): string[] {
  return places
    .filter((at) => existsSync(path.join(dir, at, '.git')))
    .flatMap((at) =>
      runGit(['ls-files'], { cwd: path.join(dir, at) })
        .split('\n')
        // A repository inside it that it tracks (a gitlink: `git add -A` over a clone) is a folder, stored by its files.
        .filter((rel) => rel !== '' && existsSync(path.join(dir, at, rel)) && !isFolder(path.join(dir, at, rel)))
        .map((rel) => `${at}/${rel}`),
    );
}

describe('random changes around repositories inside a repository', () => {
  it('a watching engine stores what a walk stores, and every tracked file of each nested repository', async () => {
    const { dir, lib } = project();
    const seed = testSeed(31);
    const next = seededRandom(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const step = (index: number): string => {
      const at = pick(places);
      const folder = path.join(dir, at);
      const [isRepository, exists] = [existsSync(path.join(folder, '.git')), existsSync(folder)];
      // Only the operations that change something here, writes and commits more often.
      const ops = [
        'write',
        'write',
        'write',
        ...(isRepository ? ['commit', 'commit', 'untrack', 'drop .git'] : ['init']),
        ...(exists ? ['rm -rf'] : ['clone']),
      ];
      const op = pick(ops);
      if (op === 'write') {
        const [where, name] = [pick(['.', at]), pick(names)];
        writeFiles(path.join(dir, where), { [name]: `v${index}\n` });
        return `write ${where}/${name}`;
      }
      if (op === 'init') {
        mkdirSync(folder, { recursive: true });
        runGit(['init', '-q', folder]);
      } else if (op === 'clone') runGit(['clone', '-q', lib, folder]);
      else if (op === 'commit') {
        // git refuses to add a repository inside with no commit yet; the rest of the commit still happens.
        try {
          runGit(['add', '-f', '-A', '--ignore-errors'], { cwd: folder });
        } catch {
          // Refused for that repository only.
        }
        runGit(['commit', '-q', '--allow-empty', '-m', `step ${index}`], { cwd: folder });
      } else if (op === 'untrack')
        runGit(['rm', '-q', '-r', '--cached', '--ignore-unmatch', pick(names)], { cwd: folder });
      else rmSync(op === 'drop .git' ? path.join(folder, '.git') : folder, { recursive: true, force: true });
      return `${op} ${at}`;
    };
    await expectRandomStepsAgree(project(), { seed, steps: 30, step, mustHold: () => trackedInNested(dir) });
  }, 120_000);
});
