import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempFixture } from '../../test-support/temp-fixture';
import { DirState } from './dir-state';
import { scanFolder, type HashCandidate } from './stat-walk';
import { StoreRules } from './store-rules';

/*
 * The main-thread walk (first checkpoints, the resident core's re-walks) holds each folder open while
 * it checks and lists it, and its recursion lists up to 4 folders per level at once. Unbounded, a
 * wide tree ran this process out of descriptors: with 1,024 allowed, a first checkpoint of 5,461
 * folders stored 912 of its 4,096 files and recorded 201 folders "unreadable" (the starting build
 * stored all). Here the process may open 200 more descriptors than it holds.
 */

/** A tree 4 folders wide and `depth` deep with one file in each deepest folder. */
function makeTree(folder: string, depth: number): void {
  if (depth === 0) {
    writeFileSync(path.join(folder, 'f.txt'), `${folder}\n`);
    return;
  }
  for (let index = 0; index < 4; index += 1) {
    const below = path.join(folder, `d${String(index)}`);
    mkdirSync(below);
    makeTree(below, depth - 1);
  }
}

const fixture = useTempFixture('vigil-walk-open-folders-', (base) => {
  const root = path.join(base, 'ws');
  mkdirSync(root);
  makeTree(root, 5);
  return { root };
});

/** This process's limit on open descriptors (soft, hard), from /proc. */
function descriptorLimits(): readonly [string, string] {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((item) => item.startsWith('Max open files'));
  const [soft = 'unlimited', hard = 'unlimited'] = line?.split(/\s{2,}/).slice(1, 3) ?? [];
  return [soft, hard];
}

/** Runs `task` while this process may open only `headroom` descriptors more than it holds now. */
async function withFewDescriptors<T>(headroom: number, task: () => Promise<T>): Promise<T> {
  const [soft, hard] = descriptorLimits();
  const held = readdirSync('/proc/self/fd').length;
  execFileSync('prlimit', [`--pid=${String(process.pid)}`, `--nofile=${String(held + headroom)}:${hard}`]);
  try {
    return await task();
  } finally {
    execFileSync('prlimit', [`--pid=${String(process.pid)}`, `--nofile=${soft}:${hard}`]);
  }
}

describe.skipIf(process.platform !== 'linux')('the main-thread walk of a wide tree', () => {
  it('lists every folder with few descriptors to spare: none is recorded unreadable', async () => {
    const { root } = fixture();
    const state = new DirState();
    const candidates: HashCandidate[] = [];
    const context = { root, state, maxFileBytes: 1 << 20, ignoredFolders: [], rules: StoreRules.builtIn };
    await withFewDescriptors(200, () => scanFolder(context, '', candidates));
    expect(state.skippedPaths().filter((entry) => entry.reason === 'unreadable')).toEqual([]);
    expect(candidates).toHaveLength(4 ** 5);
  });
});
