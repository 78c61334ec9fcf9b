import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { runGit, writeFiles } from '../test-support/restore-fixtures';

/**
 * Review: random changes in and around a submodule; after each, a watching engine stores the same tree
 * as a full walk, and every file the submodule tracks (and is on disk) is stored.
 */

let root: string;
let dir: string;
let home: string;
let remove: () => Promise<void>;
const allow = ['-c', 'protocol.file.allow=always'];

beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-submodule-random-'));
  dir = path.join(root, 'project');
  home = path.join(root, 'home');
  const lib = path.join(root, 'lib');
  mkdirSync(home, { recursive: true });
  runGit(['init', '-q', lib]);
  writeFiles(lib, { 'data.sqlite': 'rows\n', 'notes.tmp': 't\n', '.gitignore': 'gen/\n', 'src/a.txt': 'a\n' });
  runGit(['add', '-f', '-A'], { cwd: lib });
  runGit(['commit', '-q', '-m', 'lib'], { cwd: lib });
  runGit(['init', '-q', dir]);
  writeFiles(dir, { '.gitignore': '*.tmp\n', 'main.txt': 'main\n' });
  runGit(['add', '-A'], { cwd: dir });
  runGit([...allow, 'submodule', 'add', '-q', lib, 'vendor/lib'], { cwd: dir });
  runGit(['commit', '-q', '-m', 'with lib'], { cwd: dir });
});
afterEach(async () => {
  await remove();
});

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const env = (): { env: NodeJS.ProcessEnv; home: string } => ({
  env: { XDG_CONFIG_HOME: path.join(home, '.config') },
  home,
});

describe('random changes around a submodule', () => {
  it('a watching engine stores what a walk stores, and every tracked file of the submodule', async () => {
    const sub = path.join(dir, 'vendor/lib');
    const next = random(Number(process.env['REVIEW_SEED'] ?? 7));
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const names = ['x.tmp', 'y.txt', 'gen/g.txt', 'src/b.txt', 'db.sqlite', 'build/o.js', 'node_modules/m/i.js'];
    const watched = new CheckpointService({
      root: path.join(home, 'watched'),
      logger: silentLogger,
      rulesEnvironment: env(),
      watch: true,
      verifyEveryMs: 0,
    });
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
        const walker = new CheckpointService({
          root: path.join(home, `walk-${step}`),
          logger: silentLogger,
          rulesEnvironment: env(),
        });
        try {
          const walked = await walker.checkpoint(dir, { reason: 'walk' });
          const fromWatch = await watched.checkpoint(dir, { reason: `step ${step}` });
          if (walked.kind !== 'created') throw new Error('walk made none');
          const walkTree = walked.checkpoint.tree;
          if (fromWatch.kind === 'created') lastWatchTree = fromWatch.checkpoint.tree;
          const watchTree = lastWatchTree;
          const list = (gitdir: string, tree: string): string[] =>
            runGit(['--git-dir', gitdir, 'ls-tree', '-r', '--name-only', tree]).split('\n');
          const stored = list(walker.gitdir, walkTree);
          const trackedPresent = runGit(['ls-files'], { cwd: sub })
            .split('\n')
            .filter((rel) => rel !== '' && existsSync(path.join(sub, rel)))
            .map((rel) => `vendor/lib/${rel}`);
          expect(stored, `step ${step}: ${did}`).toEqual(expect.arrayContaining(trackedPresent));
          expect(list(watched.gitdir, watchTree).sort(), `step ${step}: ${did} (${fromWatch.kind})`).toEqual(
            stored.sort(),
          );
        } finally {
          await walker.dispose();
        }
      }
    } finally {
      await watched.dispose();
    }
  }, 120_000);
});
