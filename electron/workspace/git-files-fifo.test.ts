import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { settleBeside, swapInFifo } from '../test-support/fifo';
import { makeTempDir } from '../test-support/temp-dir';
import { configFilesOf } from './code-locations';
import { gitConfigPaths } from './git-config-paths';

/**
 * A sandboxed command's protected paths come from the workspace's git files (its config, the
 * files it includes, `commondir`), which the agent controls: a FIFO put at one of them names
 * nothing and is never waited on (the command would otherwise wait, with a pool thread, for ever).
 */

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-git-files-fifo-'));
  mkdirSync(path.join(dir, '.git'));
});
afterEach(async () => {
  await remove();
});

it.skipIf(process.platform === 'win32')(
  'reads a FIFO config, and a FIFO it includes, as naming nothing, at once',
  async () => {
    const config = path.join(dir, '.git', 'config');
    swapInFifo(config);
    expect(await settleBeside(gitConfigPaths(config, dir, dir), config)).toEqual({
      value: { hooksPaths: [], includes: [] },
    });
    const included = path.join(dir, 'included');
    swapInFifo(included);
    writeFileSync(path.join(dir, 'outer'), `[include]\n\tpath = ${included}\n[core]\n\thooksPath = hooks\n`);
    expect(await settleBeside(gitConfigPaths(path.join(dir, 'outer'), dir, dir), included)).toEqual({
      value: { hooksPaths: [path.join(dir, 'hooks')], includes: [included] },
    });
  },
);

it.skipIf(process.platform === 'win32')('reads a FIFO commondir as none, at once', async () => {
  const commondir = path.join(dir, '.git', 'commondir');
  swapInFifo(commondir);
  const outcome = await settleBeside(configFilesOf(path.join(dir, '.git'), dir), commondir);
  const files = typeof outcome === 'object' && 'value' in outcome ? outcome.value : [];
  // The git directory's own two and the user's two: no common directory's.
  expect(files.slice(0, 2)).toEqual([path.join(dir, '.git', 'config'), path.join(dir, '.git', 'config.worktree')]);
  expect(files).toHaveLength(4);
});
