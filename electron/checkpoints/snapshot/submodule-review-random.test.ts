import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { seededRandom, testSeed } from '../../test-support/seeded-random';
import { runGit, writeFiles } from '../test-support/restore-fixtures';
import { expectRandomStepsAgree, useSubmoduleProject } from '../test-support/submodule-project';

/**
 * Review: random changes in and around a submodule; after each, a watching engine stores the same tree
 * as a full walk, and every file the submodule tracks (and is on disk) is stored.
 */

const project = useSubmoduleProject('vigil-submodule-random-', {
  libFiles: { '.gitignore': 'gen/\n' },
  at: 'vendor/lib',
});

describe('random changes around a submodule', () => {
  it('a watching engine stores what a walk stores, and every tracked file of the submodule', async () => {
    const { dir } = project();
    const sub = path.join(dir, 'vendor/lib');
    const seed = testSeed(7);
    const next = seededRandom(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const names = ['x.tmp', 'y.txt', 'gen/g.txt', 'src/b.txt', 'db.sqlite', 'build/o.js', 'node_modules/m/i.js'];
    const step = (index: number): string => {
      const op = Math.floor(next() * 7);
      const where = pick([sub, dir]);
      const name = pick(names);
      if (op <= 2) {
        writeFiles(where, { [name]: `v${index}\n` });
        return `write ${where}/${name}`;
      }
      if (op === 3) {
        rmSync(path.join(where, name), { force: true });
        return `rm ${where}/${name}`;
      }
      if (op === 4 && existsSync(path.join(sub, name))) {
        runGit(['add', '-f', name], { cwd: sub });
        return `sub git add -f ${name}`;
      }
      if (op === 5) {
        runGit(['rm', '-q', '--cached', '--ignore-unmatch', name], { cwd: sub });
        return `sub git rm --cached ${name}`;
      }
      writeFiles(sub, { '.gitignore': pick(['gen/\n', '*.txt\n', '', '!build/\n', 'src/\n']) });
      return 'sub .gitignore';
    };
    const trackedPresent = (): string[] =>
      runGit(['ls-files'], { cwd: sub })
        .split('\n')
        .filter((rel) => rel !== '' && existsSync(path.join(sub, rel)))
        .map((rel) => `vendor/lib/${rel}`);
    await expectRandomStepsAgree(project(), { seed, steps: 30, step, mustHold: trackedPresent, pauseMs: 150 });
  }, 120_000);
});
