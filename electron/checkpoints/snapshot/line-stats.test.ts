import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { lineChanges } from './line-stats';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  temp = await makeTempDir('vigil-line-stats-');
});
afterEach(async () => {
  await temp.remove();
});

/** git's own `diff --numstat` for the same two versions. */
function gitNumstat(before: string, after: string): { insertions: number; deletions: number } {
  const gitdir = path.join(temp.dir, 'repo');
  execFileSync('git', ['init', '--quiet', gitdir]);
  writeFileSync(path.join(gitdir, 'f'), before);
  execFileSync('git', ['-C', gitdir, 'add', 'f']);
  writeFileSync(path.join(gitdir, 'f'), after);
  const [insertions = 0, deletions = 0] = execFileSync('git', ['-C', gitdir, 'diff', '--numstat', 'f'], {
    encoding: 'utf8',
  })
    .split('\t')
    .map(Number);
  return { insertions, deletions };
}

const rewrite = (seed: number, shared: (line: number) => boolean): string =>
  Array.from({ length: 400 }, (_, line) => (shared(line) ? '}\n' : `value ${seed} ${line}\n`)).join('');

describe('lineChanges on rewritten files', () => {
  it('is exact for a whole rewrite with no line in common', () => {
    const before = rewrite(1, () => false);
    const after = rewrite(2, () => false);
    expect(lineChanges(Buffer.from(before), Buffer.from(after))).toEqual(gitNumstat(before, after));
  });

  it('stays within the lines changed when a big rewrite shares a few lines', () => {
    const before = rewrite(1, (line) => line % 7 === 0);
    const after = rewrite(2, (line) => line % 7 === 0);
    const git = gitNumstat(before, after);
    const counted = lineChanges(Buffer.from(before), Buffer.from(after));
    // Past the diff budget the counts are estimated: never fewer than the lines that truly
    // differ, never more than git's count (which pairs fewer lines than the estimate may).
    expect(counted.insertions).toBeLessThanOrEqual(git.insertions);
    expect(counted.insertions).toBeGreaterThanOrEqual(400 - Math.ceil(400 / 7));
    expect(counted.deletions).toBe(counted.insertions);
  });

  it('is exact for a small edit in a big file', () => {
    const before = rewrite(1, (line) => line % 7 === 0);
    const after = before.replace('value 1 200\n', 'value 1 two hundred\n').replace('value 1 5\n', '');
    expect(lineChanges(Buffer.from(before), Buffer.from(after))).toEqual(gitNumstat(before, after));
  });
});
