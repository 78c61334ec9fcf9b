import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import {
  decodeCheckpointCommit,
  encodeCheckpointCommit,
  quotePath,
  unquotePath,
} from '../checkpoints/timeline/commit-message';
import { emptyTreeOid, encodeTree, fileModes, hashObject } from './git-objects';
import { lineChanges } from '../checkpoints/snapshot/line-stats';
import { ObjectStore } from './object-store';
import { inlineZlibMaxBytes } from './object-zlib';
import { PackWriter } from './pack-writer';
import { dirHash } from './store-layout';
import { fsck, git, testService } from '../checkpoints/test-support/store-fixtures';

describe('the object layer', () => {
  let base: string;
  let remove: () => Promise<void>;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-objects-'));
  });
  afterEach(async () => {
    await remove();
  });

  it('hashes and encodes trees exactly as git mktree does', () => {
    const gitdir = path.join(base, 'g');
    git(['init', '--quiet', '--bare', gitdir]);
    const blob = gitWithInput(['--git-dir', gitdir, 'hash-object', '-w', '--stdin'], 'x');
    expect(blob).toBe(hashObject('blob', Buffer.from('x')));
    const items = [
      { mode: fileModes.file, name: 'a.txt', oid: blob },
      { mode: fileModes.tree, name: 'a', oid: emptyTreeOid },
      { mode: fileModes.file, name: 'a-b', oid: blob },
      { mode: fileModes.executable, name: 'run', oid: blob },
      { mode: fileModes.symlink, name: 'ln', oid: blob },
      { mode: fileModes.file, name: 'Zeta', oid: blob },
      { mode: fileModes.file, name: 'é', oid: blob },
      // Beyond the BMP: UTF-16 order and UTF-8 byte order disagree with U+E000..U+FFFF.
      { mode: fileModes.file, name: '😀', oid: blob },
      { mode: fileModes.file, name: '\uE000', oid: blob },
      { mode: fileModes.tree, name: '\uFFFD-dir', oid: emptyTreeOid },
    ];
    const input = items
      .map(
        (item) =>
          `${item.mode.padStart(6, '0')} ${item.mode === fileModes.tree ? 'tree' : 'blob'} ${item.oid}\t${item.name}`,
      )
      .join('\n');
    expect(hashObject('tree', encodeTree(items))).toBe(
      gitWithInput(['--git-dir', gitdir, 'mktree', '--missing'], `${input}\n`),
    );
    expect(hashObject('tree', encodeTree([]))).toBe(emptyTreeOid);
  });

  it('opens a new pack once when refreshes run at once (no handle left to the garbage collector)', async () => {
    const store = new ObjectStore(path.join(base, 'store'));
    mkdirSync(store.packDir, { recursive: true });
    await store.refresh(true);
    const openFiles = (): number => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    for (let round = 0; round < 3; round += 1) {
      const writer = await PackWriter.create(store.packDir);
      const content = Buffer.from(`pack ${round}`);
      await writer.add('blob', content, hashObject('blob', content));
      await writer.finish();
      await Promise.all(Array.from({ length: 8 }, () => store.refresh(true)));
    }
    expect(store.packs).toHaveLength(3);
    // One handle per pack, none opened twice.
    expect(openFiles() - before).toBe(3);
    await store.close();
    expect(openFiles()).toBe(before);
  });

  it('closes after a refresh under way, so that refresh cannot open a pack again after the close', async () => {
    const store = new ObjectStore(path.join(base, 'store'));
    mkdirSync(store.packDir, { recursive: true });
    await store.refresh(true);
    const openFiles = (): number => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    const writer = await PackWriter.create(store.packDir);
    const content = Buffer.from('one pack');
    await writer.add('blob', content, hashObject('blob', content));
    await writer.finish();
    // Started together: without the turn the close takes, the refresh adds its pack after the close.
    await Promise.all([store.refresh(true), store.close()]);
    expect(store.packs).toHaveLength(0);
    expect(openFiles()).toBe(before);
  });

  it('writes packs of many small objects added at once, with objects bigger than a chunk, that git verifies (kept or read back)', async () => {
    const store = new ObjectStore(path.join(base, 'store'));
    mkdirSync(store.packDir, { recursive: true });
    git(['init', '--quiet', '--bare', store.gitdir]);
    // 3 MiB in all stays in memory for the checksum; 9 MiB is read back.
    for (const bigBytes of [1_500_000, 4_500_000]) {
      const contents = [
        ...Array.from({ length: 20_000 }, (_, index) => Buffer.from(`small ${bigBytes} ${index}\n`)),
        randomBytes(bigBytes),
        randomBytes(bigBytes),
      ];
      const writer = await PackWriter.create(store.packDir);
      // Eight at a time, as the main thread's hasher adds them: chunks fill and are written while others are added.
      let next = 0;
      const adder = async (): Promise<void> => {
        for (let index = next++; index < contents.length; index = next++) {
          const content = contents[index] as Buffer;
          await writer.add('blob', content, hashObject('blob', content));
        }
      };
      await Promise.all(Array.from({ length: 8 }, adder));
      const pack = await writer.finish();
      expect(pack?.count).toBe(contents.length);
      git(['--git-dir', store.gitdir, 'verify-pack', path.join(store.packDir, `${pack?.name ?? ''}.idx`)]);
      const last = contents.at(-1) as Buffer;
      expect(git(['--git-dir', store.gitdir, 'cat-file', '-s', hashObject('blob', last)])).toBe(String(bigBytes));
    }
  });

  it('writes packs that git verifies, and reads packs git made (deltas, packed refs) after a git gc', async () => {
    const store = new ObjectStore(path.join(base, 'store'));
    mkdirSync(store.packDir, { recursive: true });
    git(['init', '--quiet', '--bare', store.gitdir]);
    const contents = [
      Buffer.alloc(0),
      Buffer.from('small'),
      Buffer.alloc(300_000, 'ab'),
      Buffer.from('x'.repeat(70_000)),
      // Incompressible, so bigger in the pack than the copy window below.
      randomBytes(100_000),
    ];
    const writer = await PackWriter.create(store.packDir);
    for (const content of contents) await writer.add('blob', content, hashObject('blob', content));
    const pack = await writer.finish();
    expect(pack?.count).toBe(5);
    git(['--git-dir', store.gitdir, 'verify-pack', path.join(store.packDir, `${pack?.name ?? ''}.idx`)]);
    await store.refresh(true);
    for (const content of contents) {
      const oid = hashObject('blob', content);
      expect(git(['--git-dir', store.gitdir, 'cat-file', '-s', oid])).toBe(String(content.length));
      expect(Buffer.compare(await store.readTyped(oid, 'blob'), content)).toBe(0);
    }
    // Copying reads entries in windows: the same bytes as one read per entry, an entry bigger than
    // the window read alone, the entries skipped left out.
    await store.refresh(true);
    const [packFile] = store.packs;
    const offsets = [...(packFile?.index.entries() ?? [])].map((entry) => entry.offset).sort((a, b) => a - b);
    const wanted = offsets.filter((_offset, index) => index !== 1);
    const windowed = [];
    for await (const { offset, entry } of packFile?.rawEntries(wanted, 64 * 1024) ?? [])
      windowed.push({ offset, entry });
    expect(windowed.map((item) => item.offset)).toEqual(wanted);
    for (const { offset, entry } of windowed) {
      const alone = await packFile?.rawAt(offset);
      expect(entry.isWhole).toBe(true);
      expect(Buffer.compare(entry.bytes, alone?.bytes ?? Buffer.alloc(0))).toBe(0);
    }
    await store.close();

    // A real store, then git's own gc (deltas, packed-refs): Vigil keeps reading and writing it.
    const work = path.join(base, 'work');
    mkdirSync(work);
    const service = testService(path.join(base, 'home/checkpoints'));
    try {
      for (let index = 0; index < 6; index += 1) {
        writeFileSync(path.join(work, 'big.txt'), `${'shared line of text\n'.repeat(2000)}version ${index}\n`);
        await service.checkpoint(work, { reason: 'before patch' });
      }
      const before = await service.list(work);
      git(['--git-dir', service.gitdir, 'gc', '--quiet', '--aggressive']);
      expect(git(['--git-dir', service.gitdir, 'count-objects', '-v'])).toMatch(/^count: 0$/m);
      const fresh = testService(path.join(base, 'home/checkpoints'));
      try {
        expect(await fresh.list(work)).toEqual(before);
        const tree = await fresh.readTree(before[5]?.tree ?? '');
        const blob = await fresh.readBlob(tree.find((entry) => entry.name === 'big.txt')?.oid ?? '');
        expect(Buffer.from(blob).toString().endsWith('version 0\n')).toBe(true);
        writeFileSync(path.join(work, 'big.txt'), 'rewritten\n');
        const outcome = await fresh.checkpoint(work, { reason: 'before write_file' });
        expect(outcome).toMatchObject({
          kind: 'created',
          checkpoint: { parent: before[0]?.id, stats: { insertions: 1, deletions: 2001 } },
        });
        await fresh.prune();
        expect(fsck(fresh.gitdir)).toBe('');
        expect(git(['--git-dir', fresh.gitdir, 'rev-list', '--count', `refs/vigil/${dirHash(work)}`])).toBe('7');
      } finally {
        await fresh.dispose();
      }
    } finally {
      await service.dispose();
    }
  });

  it('writes loose objects of every size that git reads back, and reads back what it and git wrote (inline and pooled zlib)', async () => {
    const store = new ObjectStore(path.join(base, 'loose'));
    git(['init', '--quiet', '--bare', store.gitdir]);
    // Around the inline limit, far beyond it, and one that deflates to a few bytes but inflates past the inline ceiling.
    const contents = [
      Buffer.alloc(0),
      Buffer.from('tiny'),
      randomBytes(inlineZlibMaxBytes - 20),
      randomBytes(inlineZlibMaxBytes + 1),
      randomBytes(300_000),
      Buffer.alloc(2_000_000, 'z'),
    ];
    const oids: string[] = [];
    for (const content of contents) oids.push(await store.writeLoose('blob', content));
    oids.forEach((oid, index) => {
      expect(git(['--git-dir', store.gitdir, 'cat-file', '-s', oid])).toBe(String(contents[index]?.length));
    });
    expect(fsck(store.gitdir)).toBe('');
    // A fresh store has nothing in memory: every read inflates the file.
    const fresh = new ObjectStore(path.join(base, 'loose'));
    for (const [index, oid] of oids.entries()) {
      expect(Buffer.compare(await fresh.readTyped(oid, 'blob'), contents[index] ?? Buffer.alloc(1))).toBe(0);
    }
    const gitMade = gitWithInput(['--git-dir', store.gitdir, 'hash-object', '-w', '--stdin'], 'q'.repeat(500_000));
    expect((await fresh.readTyped(gitMade, 'blob')).toString()).toBe('q'.repeat(500_000));
    await store.close();
    await fresh.close();
  });

  it('round-trips commit messages, quoting awkward paths and flattening multi-line reasons', () => {
    const awkward = 'we"ird\\na\tme\nline';
    expect(unquotePath(quotePath(awkward))).toBe(awkward);
    expect(quotePath('plain/path.txt')).toBe('plain/path.txt');
    const content = encodeCheckpointCommit({
      tree: emptyTreeOid,
      time: 1_700_000_000,
      reason: 'before terminal: cat <<EOF\nmulti\nEOF',
      attribution: { sessionId: 's\n2', turn: 7 },
      kind: 'checkpoint',
      stats: { files: 1, insertions: 2, deletions: 3 },
      skipped: [
        { path: awkward, reason: 'oversize' },
        ...Array.from({ length: 205 }, (_, index) => ({ path: `f${index}.png`, reason: 'excluded' as const })),
      ],
    });
    const parsed = decodeCheckpointCommit(content);
    expect(parsed.subject).toBe('before terminal: cat <<EOF multi EOF');
    expect(parsed.attribution).toEqual({ sessionId: 's 2', turn: 7 });
    expect(parsed.stats).toEqual({ files: 1, insertions: 2, deletions: 3 });
    expect(parsed.skipped[0]).toEqual({ path: awkward, reason: 'oversize' });
    expect(parsed.skipped).toHaveLength(201);
    expect(parsed.skipped[200]).toEqual({ path: '6', reason: 'more' });
  });

  it('counts changed lines as git numstat does', () => {
    const gitdir = path.join(base, 'n');
    git(['init', '--quiet', gitdir]);
    const cases: Array<[string, string]> = [
      ['a\nb\nc\n', 'a\nB\nc\nd\n'],
      ['a\nb', 'a\nb\n'],
      ['', 'x\ny\n'],
      ['1\n2\n3\n4\n5\n', '5\n4\n3\n2\n1\n'],
      ['same\n'.repeat(50) + 'end', 'same\n'.repeat(49) + 'middle\n' + 'end\n'],
    ];
    for (const [before, after] of cases) {
      writeFileSync(path.join(gitdir, 'f'), before);
      git(['-C', gitdir, 'add', 'f']);
      writeFileSync(path.join(gitdir, 'f'), after);
      const [insertions, deletions] = git(['-C', gitdir, 'diff', '--numstat', 'f']).split('\t').map(Number);
      expect(lineChanges(Buffer.from(before), Buffer.from(after))).toEqual({
        insertions: insertions ?? 0,
        deletions: deletions ?? 0,
      });
    }
  });
});

/** Runs git with stdin. */
function gitWithInput(args: readonly string[], input: string): string {
  return execFileSync('git', args, {
    input,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  }).trim();
}
