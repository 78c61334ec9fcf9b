import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { settleBeside, swapInFifo } from '../../test-support/fifo';
import { makeTempDir } from '../../test-support/temp-dir';
import { RepoRulesCache } from './repo-rules';

/**
 * A checkpoint of a repository reads git's files in the workspace (its .gitignore files, the
 * index, .git/config), which the agent controls: a FIFO put at one of them must not hold the
 * snapshot (and a pool thread) until some writer comes. It is reported as unreadable instead.
 */

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-repo-rules-fifo-'));
  execFileSync('git', ['init', '--quiet', dir]);
  writeFileSync(path.join(dir, 'a.txt'), 'a\n');
  execFileSync('git', ['-C', dir, 'add', 'a.txt']);
});
afterEach(async () => {
  await remove();
});

/** Rules read with no user-level git settings (a home of its own). */
function rulesOf(): RepoRulesCache {
  return new RepoRulesCache(dir, { env: {}, home: path.join(dir, 'no-home') });
}

it.skipIf(process.platform === 'win32')('reports a FIFO .gitignore as unreadable, at once', async () => {
  const fifo = path.join(dir, '.gitignore');
  swapInFifo(fifo);
  const outcome = await settleBeside(rulesOf().current(), fifo);
  expect(outcome).toMatchObject({
    value: { repository: dir, warnings: [expect.stringContaining('not a regular file')] },
  });
});

it.skipIf(process.platform === 'win32')('reads past a FIFO .git/config and refuses a FIFO index, at once', async () => {
  swapInFifo(path.join(dir, '.git', 'config'));
  const index = path.join(dir, '.git', 'index');
  swapInFifo(index);
  const outcome = await settleBeside(rulesOf().current(), [index, path.join(dir, '.git', 'config')]);
  expect(outcome).toMatchObject({ value: { warnings: [expect.stringContaining(`${index} cannot be read`)] } });
});
