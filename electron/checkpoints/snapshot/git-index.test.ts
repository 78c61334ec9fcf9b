import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { runGit } from '../test-support/restore-fixtures';
import { readGitIndexPaths } from './git-index';
import { StoreRules } from './store-rules';

/**
 * The index reader against git's own `ls-files`, on the cases its one-decode path must get right:
 * a merge's stages, a path longer than the entry's 12-bit length field, names outside ASCII, each
 * index version. And the tracked-folder question answered by searching the paths in order.
 */

let dir: string;
let remove: () => Promise<void>;

beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-git-index-'));
});
afterEach(async () => {
  await remove();
});

function git(args: readonly string[]): string {
  return runGit(['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir });
}

function write(rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), text);
}

function readIndex(): ReturnType<typeof readGitIndexPaths> {
  return readGitIndexPaths(readFileSync(path.join(dir, '.git', 'index')));
}

/** `git ls-files`, each path once (it lists a conflicted path once per stage; the reader once). */
function listedByGit(): string[] {
  const listed = git(['-c', 'core.quotepath=off', 'ls-files']).split('\n');
  return listed.filter((item, index) => index === 0 || listed[index - 1] !== item);
}

describe('readGitIndexPaths', () => {
  it('lists what git ls-files lists: a conflicted merge, a path past 4,095 bytes, names outside ASCII, v2 to v4', () => {
    git(['init', '-q', '-b', 'main', '.']);
    const long = `${Array.from({ length: 18 }, (_, index) => `${String(index).padStart(2, '0')}${'d'.repeat(240)}`).join('/')}/long.txt`;
    expect(Buffer.byteLength(long)).toBeGreaterThan(0xfff);
    for (const rel of ['a.txt', 'conflict.txt', 'é/ü.txt', 'x/\u{e000}.txt', 'x/😀.txt', 'z/last.txt'])
      write(rel, `${rel}\n`);
    git(['add', '-A']);
    git(['commit', '-qm', 'base']);
    git(['checkout', '-qb', 'other']);
    write('conflict.txt', 'other\n');
    git(['commit', '-qam', 'other']);
    git(['checkout', '-q', 'main']);
    write('conflict.txt', 'main\n');
    git(['commit', '-qam', 'main']);
    expect(() => git(['merge', '-q', 'other'])).toThrow();
    expect(git(['ls-files', '-s', 'conflict.txt']).split('\n')).toHaveLength(3);
    // Too long for this file system's paths, not for git's index: staged by name only.
    const blob = git(['hash-object', '-w', 'a.txt']).trim();
    git(['update-index', '--add', '--cacheinfo', `100644,${blob},${long}`]);
    expect(listedByGit()).toContain(long);
    for (const version of ['2', '3', '4']) {
      git(['update-index', '--index-version', version]);
      const read = readIndex();
      expect('paths' in read && read.paths).toEqual(listedByGit());
      expect('paths' in read && read.paths.filter((item) => item === 'conflict.txt')).toHaveLength(1);
    }
  });

  it('reads a version 4 index past a name that is not UTF-8 as v2 does (each path from the bytes before it)', () => {
    git(['init', '-q', '.']);
    // "b" and the byte 0x80 (not UTF-8), then "c": v4 stores "c" as "drop 2 bytes of the previous path, add c".
    writeFileSync(Buffer.concat([Buffer.from(dir), Buffer.from([0x2f, 0x62, 0x80])]), 'not utf-8\n');
    write('c', 'after it\n');
    git(['add', '-A']);
    git(['update-index', '--index-version', '2']);
    const v2 = readIndex();
    git(['update-index', '--index-version', '4']);
    const v4 = readIndex();
    expect('paths' in v2 && v2.paths).toEqual(['b\uFFFD', 'c']);
    expect('paths' in v4 && v4.paths).toEqual('paths' in v2 && v2.paths);
    expect('digest' in v4 && v4.digest).toBe('digest' in v2 && v2.digest);
  });

  it('gives the same digest for the same paths whatever their content, another for another path', () => {
    git(['init', '-q', '.']);
    write('a.txt', 'one\n');
    write('b/c.txt', 'two\n');
    git(['add', '-A']);
    const first = readIndex();
    write('a.txt', 'changed\n');
    git(['add', '-A']);
    const second = readIndex();
    write('d.txt', 'new\n');
    git(['add', '-A']);
    const third = readIndex();
    if (!('digest' in first && 'digest' in second && 'digest' in third)) throw new Error('expected readable indexes');
    expect(second.digest).toBe(first.digest);
    expect(third.digest).not.toBe(first.digest);
  });
});

/** The old answer: every folder above a tracked path. */
function foldersAbove(tracked: readonly string[]): Set<string> {
  const folders = new Set<string>();
  for (const item of tracked)
    for (let slash = item.indexOf('/'); slash >= 0; slash = item.indexOf('/', slash + 1))
      folders.add(item.slice(0, slash));
  return folders;
}

describe('StoreRules.holdsTracked', () => {
  it('finds a folder whose name git orders before a name JavaScript orders first', () => {
    // UTF-8: U+E000 (EE 80 80) before U+1F600 (F0 …); UTF-16: U+1F600 (D83D DE00) before U+E000.
    const tracked = ['a/x', 'q\u{e000}/x', 'q😀/x'];
    const rules = new StoreRules({ key: 'order', prefix: '', tracked, sources: [], isRepository: true });
    expect(['a', 'q\u{e000}', 'q😀', 'q'].map((folder) => rules.holdsTracked(folder))).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('agrees with the set of folders above every tracked path, in git byte order or not', () => {
    const parts = ['a', 'a-b', 'a.b', 'ab', 'b', '\u{e000}', '😀', 'é', 'A', '0'];
    let seed = 7;
    const next = (bound: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % bound;
    };
    for (let round = 0; round < 300; round += 1) {
      const tracked = new Set<string>();
      for (let count = next(12); count > 0; count -= 1) {
        const depth = 1 + next(4);
        tracked.add(Array.from({ length: depth }, () => parts[next(parts.length)]).join('/'));
      }
      // git's order: by UTF-8 bytes (not JavaScript's UTF-16 order for the two names past U+D7FF).
      const inGitOrder = [...tracked].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
      const rules = new StoreRules({
        key: `k${round}`,
        prefix: '',
        tracked: inGitOrder,
        sources: [],
        isRepository: true,
      });
      const expected = foldersAbove(inGitOrder);
      const asked = new Set([...expected, ...parts, 'a/a', 'a/😀', '😀/a', 'a/b/c', '\u{e000}/a']);
      for (const folder of asked)
        expect(rules.holdsTracked(folder), `${folder} in ${inGitOrder.join(', ')}`).toBe(expected.has(folder));
    }
  });
});
