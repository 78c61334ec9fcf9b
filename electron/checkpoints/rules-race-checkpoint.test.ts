import { copyFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { CheckpointService } from './checkpoint-service';
import { runGit } from './test-support/restore-fixtures';

/**
 * End to end: a file an agent tracks with `git add -f` while a checkpoint reads the
 * repository's rules must be in the next checkpoint (tracked files are stored whatever an ignore
 * rule says). The index is swapped in (by rename, as git writes it) at a different point of the
 * checkpoint in each round; after it, nothing changes, and one more checkpoint must hold the file.
 */

let base: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-rules-race-cp-'));
});
afterEach(async () => {
  await remove();
});

describe('a checkpoint after a git add -f made during the previous one', () => {
  it('holds the newly tracked file, wherever in the previous checkpoint the index changed', async () => {
    const dir = path.join(base, 'project');
    const home = path.join(base, 'home');
    mkdirSync(home, { recursive: true });
    const rulesEnvironment = { env: { XDG_CONFIG_HOME: path.join(home, '.config') }, home };
    runGit(['init', '-q', dir]);
    writeFileSync(path.join(dir, '.gitignore'), 'build/\n');
    mkdirSync(path.join(dir, 'build'));
    writeFileSync(path.join(dir, 'build', 'out.js'), 'shipped\n');
    writeFileSync(path.join(dir, 'a.txt'), 'a\n');
    runGit(['add', '.gitignore', 'a.txt'], { cwd: dir });
    const indexFile = path.join(dir, '.git', 'index');
    const without = path.join(base, 'index-without');
    const withFile = path.join(base, 'index-with');
    copyFileSync(indexFile, without);
    runGit(['add', '-f', '.gitignore', 'a.txt', 'build/out.js'], { cwd: dir, env: { GIT_INDEX_FILE: withFile } });
    const install = (source: string): void => {
      copyFileSync(source, `${indexFile}.swap`);
      renameSync(`${indexFile}.swap`, indexFile);
    };

    const missing: number[] = [];
    for (let ticks = 0; ticks < 80; ticks += 1) {
      const root = path.join(base, `checkpoints-${ticks}`);
      const engine = new CheckpointService({ root, logger: silentLogger, rulesEnvironment });
      try {
        install(without);
        await engine.checkpoint(dir, { reason: 'before' });
        install(without); // the same paths in another file: this checkpoint reads the rules again
        const during = engine.checkpoint(dir, { reason: 'during the git add' });
        for (let tick = 0; tick < ticks; tick += 1) await new Promise((resolve) => setImmediate(resolve));
        install(withFile);
        await during;
        await engine.checkpoint(dir, { reason: 'after' });
        const store = path.join(root, 'store');
        const head = runGit(['--git-dir', store, 'for-each-ref', '--format=%(objectname)']).split('\n')[0] ?? '';
        const files = runGit(['--git-dir', store, 'ls-tree', '-r', '--name-only', head]).split('\n');
        if (!files.includes('build/out.js')) missing.push(ticks);
      } finally {
        await engine.dispose();
      }
    }
    expect(missing, 'rounds whose last checkpoint left out the tracked build/out.js').toEqual([]);
  }, 120_000);
});
