import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempFixture } from '../test-support/temp-fixture';
import { hashObject } from '../git-store';
import type { CheckpointServiceOptions } from './checkpoint-service';
import { fsck, git, testService } from './test-support/store-fixtures';

/*
 * The race for real: a child process (the agent) keeps swapping the workspace's `src` between its real
 * folder and a symlink to a folder the sandbox hides from the agent, while checkpoints run. Whatever the
 * timing, the store must hold no blob of the hidden folder and no path through the link (the link itself
 * may be stored, as a link). The deterministic versions, each step at its exact moment: snapshot/walk-swap.test.ts.
 */

const secret = 'SECRET-walk-swap-5d1e0b77\n';
const secretOid = hashObject('blob', Buffer.from(secret));
/** How long each engine checkpoints against the swapper. */
const soakMs = 2_500;

const fixture = useTempFixture('vigil-checkpoint-walk-swap-', (base) => {
  const root = path.join(base, 'ws');
  const hidden = path.join(base, 'hidden');
  for (let index = 0; index < 200; index += 1) {
    mkdirSync(path.join(root, 'src', `d${index % 10}`), { recursive: true });
    writeFileSync(path.join(root, 'src', `d${index % 10}`, `f${index}.txt`), `inside ${index}\n`);
    mkdirSync(path.join(hidden, `d${index % 10}`), { recursive: true });
    writeFileSync(path.join(hidden, `d${index % 10}`, `secret${index}`), secret);
  }
  writeFileSync(path.join(hidden, 'id_rsa'), secret);
  writeFileSync(path.join(root, 'README.md'), 'a workspace\n');
  return { base, root, hidden, home: path.join(base, 'home', 'checkpoints') };
});

/**
 * Swaps `src` in `root` for a symlink to `hidden` and back until killed, holding each state for 0 to 3 ms
 * (a pattern of lengths), so that a walk's listing, lstat and read of a folder fall now in one state, now across both.
 */
const swapperScript = `
const fs = require('fs');
const [root, hidden] = process.argv.slice(1);
const pause = new Int32Array(new SharedArrayBuffer(4));
process.chdir(root);
for (let turn = 0; ; turn += 1) {
  const hold = (turn % 7) / 2;
  try { fs.renameSync('src', 'src.real'); fs.symlinkSync(hidden, 'src'); } catch {}
  Atomics.wait(pause, 0, 0, hold);
  try { fs.unlinkSync('src'); fs.renameSync('src.real', 'src'); } catch {}
  Atomics.wait(pause, 0, 0, hold);
}`;

/** Checkpoints `root` again and again for `soakMs` while a swapper runs; how many checkpoints it made. */
async function checkpointWhileSwapping(
  root: string,
  hidden: string,
  home: string,
  options: Partial<CheckpointServiceOptions>,
) {
  const service = testService(home, options);
  const swapper = spawn(process.execPath, ['-e', swapperScript, root, hidden], { stdio: 'ignore' });
  let made = 0;
  try {
    const endAt = Date.now() + soakMs;
    for (let turn = 0; Date.now() < endAt; turn += 1) {
      writeFileSync(path.join(root, 'README.md'), `turn ${turn}\n`);
      const outcome = await service.checkpoint(root, { reason: 'before write_file' });
      if (outcome.kind === 'created') made += 1;
    }
  } finally {
    swapper.kill('SIGKILL');
    await new Promise((resolve) => swapper.once('exit', resolve));
    await service.dispose();
  }
  return made;
}

/** Every path of every checkpoint in the store, by git's own CLI. */
function storedPaths(gitdir: string): string[] {
  const commits = git(['--git-dir', gitdir, 'rev-list', '--all']).split('\n').filter(Boolean);
  return commits.flatMap((commit) => git(['--git-dir', gitdir, 'ls-tree', '-r', commit]).split('\n'));
}

describe('checkpoints while the agent swaps a folder for a symlink to a hidden folder', () => {
  it.each([
    { engine: 'one-shot, walked on the main thread', options: {} },
    { engine: 'one-shot, walked and read in workers', options: { workerThreshold: 2 } },
    { engine: 'watching (resident core)', options: { watch: true } },
  ])('$engine: the store holds nothing from behind the link', async ({ options }) => {
    const { root, hidden, home } = fixture();
    const made = await checkpointWhileSwapping(root, hidden, home, options);
    expect(made).toBeGreaterThan(0);
    const gitdir = path.join(home, 'store');
    const hasSecret = (() => {
      try {
        git(['--git-dir', gitdir, 'cat-file', '-e', secretOid]);
        return true;
      } catch {
        return false;
      }
    })();
    expect(hasSecret).toBe(false);
    const paths = storedPaths(gitdir);
    expect(paths.filter((line) => /\tsrc\/(id_rsa|d\d\/secret)/u.test(line))).toEqual([]);
    // `src` itself may be stored as what it was at that moment: a folder, or a link (mode 120000), never both at once.
    expect(paths.filter((line) => line.endsWith('\tsrc') && !line.startsWith('120000 blob'))).toEqual([]);
    fsck(gitdir);
  });
});
