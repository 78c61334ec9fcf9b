import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { seededRandom, testSeed } from '../../test-support/seeded-random';
import { runGit } from '../test-support/restore-fixtures';
import { readEwahBitmap } from './ewah-bitmap';
import { readGitIndexPaths } from './git-index';
import { RepoRulesCache, type RulesEnvironment } from './repo-rules';

/**
 * A split index (`core.splitIndex`) is read as git reads it: the tracked set is `git ls-files`,
 * so a tracked `*.log` (a name Vigil's built-in rules leave out) is stored. Random `git add` and
 * `git rm` give split indexes with added, replaced and deleted entries, and now and then a new
 * shared index. A missing or damaged shared index gives a warning naming it and the fix, and the
 * rules are read again once it is back (its identity is part of the rules' key).
 */

let root: string;
let dir: string;
let remove: () => Promise<void>;
let environment: RulesEnvironment;

beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-split-index-'));
  dir = path.join(root, 'project');
  const home = path.join(root, 'home');
  mkdirSync(home, { recursive: true });
  environment = { env: { XDG_CONFIG_HOME: path.join(home, '.config') }, home };
  runGit(['init', '-q', dir]);
  runGit(['config', 'core.splitIndex', 'true'], { cwd: dir });
  write('logs/run.log', 'tracked log\n');
  write('src/a.ts', 'a\n');
  runGit(['add', '.'], { cwd: dir });
});
afterEach(async () => {
  await remove();
});

function write(relative: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
  writeFileSync(path.join(dir, relative), text);
}

/** What git lists (each path once). */
function listedByGit(): string[] {
  const listed = runGit(['ls-files', '-z'], { cwd: dir }).split('\0').filter(Boolean);
  return listed.filter((item, index) => index === 0 || listed[index - 1] !== item);
}

function sharedIndexFiles(): string[] {
  return readdirSync(path.join(dir, '.git')).filter((name) => name.startsWith('sharedindex.'));
}

/** The split index's changes to its shared index, as counts (undefined when the index is not split). */
function splitShape(): { added: number; replaced: number; deleted: number } | undefined {
  const read = readGitIndexPaths(readFileSync(path.join(dir, '.git', 'index')));
  if (!('split' in read)) return undefined;
  const deleted = readEwahBitmap(read.split.bitmaps, 0, 1e6);
  if ('error' in deleted) throw new Error(deleted.error);
  const replaced = readEwahBitmap(read.split.bitmaps, deleted.end, 1e6);
  if ('error' in replaced) throw new Error(replaced.error);
  const added = read.split.entries.length - replaced.bits.length;
  return { added, replaced: replaced.bits.length, deleted: deleted.bits.length };
}

describe('a split index', () => {
  it('gives the tracked set git ls-files gives, through random adds, changes and removals', async () => {
    const random = seededRandom(testSeed(3111));
    const cache = new RepoRulesCache(dir, environment);
    const anHourAgo = new Date(Date.now() - 3_600_000);
    // With names whose order differs between UTF-16 and git's bytes, and a file beside a folder of its stem.
    const names = [
      ...Array.from({ length: 60 }, (_, index) =>
        index % 3 === 0 ? `logs/${index}.log` : `src/${index % 5}/f${index}.ts`,
      ),
      ...['x/a-b.ts', 'x/a/b.ts', 'x/a.log', 'x/é.log', 'x/\u{e000}.ts', 'x/😀.ts'],
    ];
    const sawEveryChange = new Set<number>();
    /** Writes files that are not racily clean (git keeps those in the shared index until they change). */
    const writeOld = (name: string, text: string): void => {
      write(name, text);
      utimesSync(path.join(dir, name), anHourAgo, anHourAgo);
    };
    // Files no random round touches, for one round of each half that changes, adds and removes at once.
    for (const half of [0, 1]) {
      writeOld(`fixed/${half}-changed.ts`, 'before\n');
      writeOld(`fixed/${half}-removed.log`, 'removed\n');
    }
    runGit(['config', 'splitIndex.maxPercentChange', '50'], { cwd: dir });
    runGit(['add', 'fixed'], { cwd: dir });
    runGit(['update-index', '--split-index'], { cwd: dir });
    for (let round = 0; round < 40; round += 1) {
      if (round === 20) {
        // The second half in version 4 (path prefix compression, the replacing entries' empty names included).
        runGit(['update-index', '--index-version', '4'], { cwd: dir });
        runGit(['update-index', '--split-index'], { cwd: dir }); // the version change wrote it whole
      }
      const picked = names.filter(() => random() < 0.15);
      const operation = random();
      if (round % 20 === 10) {
        const half = round < 20 ? 0 : 1;
        runGit(['update-index', '--split-index'], { cwd: dir });
        writeOld(`fixed/${half}-changed.ts`, 'after\n');
        writeOld(`fixed/${half}-added.ts`, 'added\n');
        runGit(['add', `fixed/${half}-changed.ts`, `fixed/${half}-added.ts`], { cwd: dir });
        runGit(['rm', '-q', '--cached', `fixed/${half}-removed.log`], { cwd: dir });
      } else if (operation < 0.5) {
        for (const name of picked) {
          write(name, `${name} ${round}\n`);
          // Most not racily clean, so they stay in the shared index until changed.
          if (random() < 0.7) utimesSync(path.join(dir, name), anHourAgo, anHourAgo);
        }
        runGit(['add', '-A', '--', ...picked, 'src/a.ts'], { cwd: dir });
      } else if (operation < 0.85) {
        const tracked = new Set(listedByGit());
        const removed = picked.filter((name) => tracked.has(name));
        if (removed.length > 0) runGit(['rm', '-q', '--cached', '--', ...removed], { cwd: dir });
      } else {
        runGit(['update-index', '--split-index'], { cwd: dir });
      }
      const loaded = await cache.current();
      expect(loaded.warnings, `round ${round}`).toEqual([]);
      expect(loaded.rules.data.tracked, `round ${round}`).toEqual(listedByGit());
      const fresh = await new RepoRulesCache(dir, environment).current();
      expect(fresh.rules.data.key, `round ${round}: a fresh read gives the same rules`).toBe(loaded.rules.data.key);
      const shape = splitShape();
      console.log(
        'UNI',
        round,
        listedByGit()
          .filter((n) => n.startsWith('x/'))
          .join(' '),
        JSON.stringify(shape),
      );
      expect(shape, `round ${round}: git keeps a split index`).toBeDefined();
      if (shape !== undefined && shape.added > 0 && shape.replaced > 0 && shape.deleted > 0)
        sawEveryChange.add(readFileSync(path.join(dir, '.git', 'index')).readUInt32BE(4));
    }
    expect([...sawEveryChange], 'index versions with a round of added, replaced and deleted entries at once').toEqual([
      2, 4,
    ]);
    // The same paths in a whole index give the same rules (no walk forced by turning the split off).
    const splitKey = (await cache.current()).rules.data.key;
    runGit(['update-index', '--no-split-index'], { cwd: dir });
    expect(splitShape()).toBeUndefined();
    expect((await cache.current()).rules.data.key).toBe(splitKey);
  });

  it('stores a tracked *.log held only in the shared index, and not once it is removed', async () => {
    // Never a new shared index: the changes below stay in the split index.
    runGit(['config', 'splitIndex.maxPercentChange', '100'], { cwd: dir });
    runGit(['update-index', '--split-index'], { cwd: dir });
    write('src/b.ts', 'b\n');
    runGit(['add', 'src/b.ts'], { cwd: dir });
    expect(splitShape()).toMatchObject({ added: 1 });
    const cache = new RepoRulesCache(dir, environment);
    const before = await cache.current();
    expect(before.warnings).toEqual([]);
    expect(before.rules.pathExclusion('logs/run.log', false)).toBeUndefined();
    runGit(['rm', '-q', '--cached', 'logs/run.log'], { cwd: dir });
    expect(splitShape()).toMatchObject({ deleted: 1 });
    const after = await cache.current();
    expect(after.rules.data.tracked).toEqual(['src/a.ts', 'src/b.ts']);
    expect(after.rules.pathExclusion('logs/run.log', false)).toBe('excluded');
  });

  it("puts the added entries among the shared ones in git's byte order, not JavaScript's string order", async () => {
    runGit(['config', 'splitIndex.maxPercentChange', '100'], { cwd: dir });
    write('x/\u{e000}.ts', 'private use\n');
    runGit(['add', '.'], { cwd: dir });
    runGit(['update-index', '--split-index'], { cwd: dir });
    // U+E000 sorts before U+1F600 in UTF-8 bytes (git's order) but after its surrogate pair in UTF-16.
    write('x/😀.ts', 'emoji\n');
    write('x/a.ts', 'a\n');
    runGit(['add', '.'], { cwd: dir });
    expect(splitShape()).toMatchObject({ added: 2 });
    const loaded = await new RepoRulesCache(dir, environment).current();
    expect(loaded.rules.data.tracked).toEqual(listedByGit());
    expect(listedByGit().slice(-3)).toEqual(['x/a.ts', 'x/\u{e000}.ts', 'x/😀.ts']);
  });

  it('with its shared index missing: a warning names it and the fix; read again once it is back', async () => {
    runGit(['update-index', '--split-index'], { cwd: dir });
    const [shared] = sharedIndexFiles();
    const sharedFile = path.join(dir, '.git', shared as string);
    const cache = new RepoRulesCache(dir, environment);
    renameSync(sharedFile, `${sharedFile}.away`);
    const missing = await cache.current();
    expect(missing.warnings).toHaveLength(1);
    expect(missing.warnings[0]).toContain(sharedFile);
    expect(missing.warnings[0]).toContain('git read-tree HEAD');
    expect(missing.rules.pathExclusion('logs/run.log', false)).toBe('excluded');
    renameSync(`${sharedFile}.away`, sharedFile);
    const back = await cache.current();
    expect(back.warnings).toEqual([]);
    expect(back.rules.pathExclusion('logs/run.log', false)).toBeUndefined();
  });

  it('with its shared index damaged: a warning names it; read again once it is whole', async () => {
    runGit(['update-index', '--split-index'], { cwd: dir });
    const sharedFile = path.join(dir, '.git', sharedIndexFiles()[0] as string);
    const whole = readFileSync(sharedFile);
    const damaged = Buffer.from(whole);
    damaged[20] = (damaged[20] ?? 0) ^ 1;
    const cache = new RepoRulesCache(dir, environment);
    writeFileSync(sharedFile, damaged);
    const read = await cache.current();
    expect(read.warnings).toHaveLength(1);
    expect(read.warnings[0]).toContain(sharedFile);
    expect(read.warnings[0]).toContain('checksum');
    rmSync(sharedFile);
    writeFileSync(sharedFile, whole);
    expect((await cache.current()).warnings).toEqual([]);
  });

  it('with a damaged link extension (its checksum made to match): a warning names the index; built-in rules', async () => {
    runGit(['update-index', '--split-index'], { cwd: dir });
    const indexFile = path.join(dir, '.git', 'index');
    const bytes = readFileSync(indexFile);
    const link = bytes.lastIndexOf('link');
    // The delete bitmap claims far more words than the extension holds.
    bytes.writeUInt32BE(0xffff, link + 8 + 20 + 4);
    createHash('sha1')
      .update(bytes.subarray(0, -20))
      .digest()
      .copy(bytes, bytes.length - 20);
    writeFileSync(indexFile, bytes);
    const loaded = await new RepoRulesCache(dir, environment).current();
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toContain(indexFile);
    expect(loaded.warnings[0]).toContain('delete bitmap');
    expect(loaded.rules.pathExclusion('logs/run.log', false)).toBe('excluded');
  });

  it('sees a shared index put back while the rules are read, wherever in the read it lands', async () => {
    runGit(['update-index', '--split-index'], { cwd: dir });
    const indexFile = path.join(dir, '.git', 'index');
    const sharedFile = path.join(dir, '.git', sharedIndexFiles()[0] as string);
    const indexBytes = readFileSync(indexFile);
    const stale: number[] = [];
    for (let ticks = 0; ticks < 40; ticks += 1) {
      renameSync(sharedFile, `${sharedFile}.away`);
      const cache = new RepoRulesCache(dir, environment);
      await cache.current();
      // The same index in a new file (as git writes it): the next read loads again.
      writeFileSync(`${indexFile}.swap`, indexBytes);
      renameSync(`${indexFile}.swap`, indexFile);
      const reading = cache.current();
      for (let tick = 0; tick < ticks; tick += 1) await new Promise((resolve) => setImmediate(resolve));
      renameSync(`${sharedFile}.away`, sharedFile);
      await reading;
      const next = await cache.current();
      if (next.warnings.length > 0) stale.push(ticks);
    }
    expect(stale, 'reads after which the next one kept the missing shared index').toEqual([]);
  });
});
