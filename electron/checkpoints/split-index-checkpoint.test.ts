import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import type { CheckpointService } from './checkpoint-service';
import { runGit } from './test-support/restore-fixtures';
import { created, testService } from './test-support/store-fixtures';

/**
 * End to end: in a repository with a split index (`core.splitIndex`), a checkpoint stores every
 * file git tracks, a `*.log` and a `*.sqlite` too (names Vigil's built-in rules leave out), and
 * follows the index as it changes: a file `git rm --cached` takes out is no longer stored, a
 * newly added one is.
 */

let base: string;
let dir: string;
let remove: () => Promise<void>;
let service: CheckpointService;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-split-index-cp-'));
  dir = path.join(base, 'project');
  const home = path.join(base, 'home');
  mkdirSync(home, { recursive: true });
  const rulesEnvironment = { env: { XDG_CONFIG_HOME: path.join(home, '.config') }, home };
  service = testService(path.join(base, 'checkpoints'), { rulesEnvironment });
});
afterEach(async () => {
  await service.dispose();
  await remove();
});

function write(relative: string, content: string): void {
  mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
  writeFileSync(path.join(dir, relative), content);
}

/** The paths of a checkpoint's tree, as git lists them from the store. */
async function storedPaths(reason: string): Promise<string[]> {
  const entry = created(await service.checkpoint(dir, { reason }));
  return runGit(['--git-dir', service.gitdir, 'ls-tree', '-r', '--name-only', entry.tree]).split('\n');
}

describe('a checkpoint in a repository with a split index', () => {
  it('stores the tracked *.log and *.sqlite, and follows git add and git rm --cached', async () => {
    runGit(['init', '-q', dir]);
    runGit(['config', 'core.splitIndex', 'true'], { cwd: dir });
    write('src/app.ts', 'app\n');
    write('logs/run.log', 'a tracked log\n');
    write('data/app.sqlite', 'a tracked database\n');
    write('logs/untracked.log', 'not tracked\n');
    runGit(['add', 'src/app.ts', 'logs/run.log', 'data/app.sqlite'], { cwd: dir });
    runGit(['update-index', '--split-index'], { cwd: dir });
    write('logs/second.log', 'tracked later\n');
    runGit(['add', 'logs/second.log'], { cwd: dir });
    expect(runGit(['ls-files'], { cwd: dir }).split('\n')).toContain('logs/run.log');

    expect(await storedPaths('first')).toEqual(['data/app.sqlite', 'logs/run.log', 'logs/second.log', 'src/app.ts']);

    runGit(['rm', '-q', '--cached', 'logs/run.log'], { cwd: dir });
    write('logs/third.log', 'tracked last\n');
    runGit(['add', 'logs/third.log'], { cwd: dir });
    expect(await storedPaths('second')).toEqual(['data/app.sqlite', 'logs/second.log', 'logs/third.log', 'src/app.ts']);
  });
});
