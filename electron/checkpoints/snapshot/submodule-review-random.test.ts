import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom, testSeed } from '../../test-support/seeded-random';
import { runGit, writeFiles } from '../test-support/restore-fixtures';
import { listedPaths, projectEngine, useSubmoduleProject } from '../test-support/submodule-project';

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
    const watched = projectEngine(project(), 'watched', true);
    try {
      const first = await watched.checkpoint(dir, { reason: 'start' });
      let lastWatchTree = first.kind === 'created' ? first.checkpoint.tree : '';
      for (let step = 0; step < 30; step += 1) {
        const op = Math.floor(next() * 7);
        const where = pick([sub, dir]);
        const name = pick(names);
        let did = '';
        if (op <= 2) {
          writeFiles(where, { [name]: `v${step}\n` });
          did = `write ${where}/${name}`;
        } else if (op === 3) {
          rmSync(path.join(where, name), { force: true });
          did = `rm ${where}/${name}`;
        } else if (op === 4 && existsSync(path.join(sub, name))) {
          runGit(['add', '-f', name], { cwd: sub });
          did = `sub git add -f ${name}`;
        } else if (op === 5) {
          runGit(['rm', '-q', '--cached', '--ignore-unmatch', name], { cwd: sub });
          did = `sub git rm --cached ${name}`;
        } else {
          writeFiles(sub, { '.gitignore': pick(['gen/\n', '*.txt\n', '', '!build/\n', 'src/\n']) });
          did = 'sub .gitignore';
        }
        await new Promise((resolve) => setTimeout(resolve, 150));
        const walker = projectEngine(project(), `walk-${step}`, false);
        try {
          const walked = await walker.checkpoint(dir, { reason: 'walk' });
          const fromWatch = await watched.checkpoint(dir, { reason: `step ${step}` });
          if (walked.kind !== 'created') throw new Error('walk made none');
          const walkTree = walked.checkpoint.tree;
          if (fromWatch.kind === 'created') lastWatchTree = fromWatch.checkpoint.tree;
          const watchTree = lastWatchTree;
          const stored = listedPaths(walker, walkTree);
          const trackedPresent = runGit(['ls-files'], { cwd: sub })
            .split('\n')
            .filter((rel) => rel !== '' && existsSync(path.join(sub, rel)))
            .map((rel) => `vendor/lib/${rel}`);
          expect(stored, `seed ${seed}, step ${step}: ${did}`).toEqual(expect.arrayContaining(trackedPresent));
          expect(
            listedPaths(watched, watchTree).sort(),
            `seed ${seed}, step ${step}: ${did} (${fromWatch.kind})`,
          ).toEqual(stored.sort());
        } finally {
          await walker.dispose();
        }
      }
    } finally {
      await watched.dispose();
    }
  }, 120_000);
});
