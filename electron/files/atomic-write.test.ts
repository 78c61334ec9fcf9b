import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { writeFileAtomic } from './atomic-write';
import { readFileIdentity } from './file-identity';
import { handToNobody, isRoot, writeAsNobody } from './test-support/run-as-nobody';
import { isVigilTempFile } from './vigil-temp-name';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-atomic-'));
});
afterEach(async () => {
  await remove();
});

/** The Vigil temp files anywhere under a directory. */
function tempsUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((name) => isVigilTempFile(name));
}

/** The umask of this process, read back from a file created with 0666. */
function umaskDefault(): number {
  const probe = path.join(dir, 'umask-probe');
  writeFileSync(probe, '', { mode: 0o666 });
  return statSync(probe).mode & 0o777;
}

describe('writeFileAtomic', () => {
  it('creates a new file with the umask default mode and names the directories it created', async () => {
    const target = path.join(dir, 'a', 'b', 'new.txt');
    const result = await writeFileAtomic(target, 'hello\n');
    expect(result).toEqual({
      path: target,
      bytesWritten: 6,
      created: true,
      dirsCreated: [path.join(dir, 'a'), path.join(dir, 'a', 'b')],
    });
    expect(readFileSync(target, 'utf8')).toBe('hello\n');
    expect(statSync(target).mode & 0o777).toBe(umaskDefault());
    const again = await writeFileAtomic(path.join(dir, 'a', 'other.txt'), 'x');
    expect(again.dirsCreated).toEqual([]);
    expect(tempsUnder(dir)).toEqual([]);
  });

  it('replaces the file by rename (a new inode) and keeps its mode', async () => {
    for (const mode of [0o600, 0o640, 0o755, 0o444]) {
      const target = path.join(dir, `mode-${mode.toString(8)}`);
      writeFileSync(target, 'old');
      chmodSync(target, mode);
      const before = statSync(target).ino;
      const result = await writeFileAtomic(target, 'new content');
      expect(result.created).toBe(false);
      expect(statSync(target).ino).not.toBe(before);
      expect(statSync(target).mode & 0o7777).toBe(mode);
      expect(readFileSync(target, 'utf8')).toBe('new content');
    }
  });

  it('applies an explicit mode to new and existing files', async () => {
    const target = path.join(dir, 'script.sh');
    await writeFileAtomic(target, '#!/bin/sh\n', { mode: 0o750 });
    expect(statSync(target).mode & 0o7777).toBe(0o750);
    await writeFileAtomic(target, '#!/bin/sh\necho\n', { mode: 0o600 });
    expect(statSync(target).mode & 0o7777).toBe(0o600);
    await expect(writeFileAtomic(target, 'x', { mode: 0o10000 })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(readFileSync(target, 'utf8')).toBe('#!/bin/sh\necho\n');
  });

  it('round-trips quotes, $, backticks, backslashes, unicode, NUL and every byte value exactly', async () => {
    const text = `it's "quoted" $HOME \`whoami\` C:\\path\\n \u0000 héllo 日本語 🎉 \r\n tail`;
    const textTarget = path.join(dir, 'text.txt');
    await writeFileAtomic(textTarget, text);
    expect(readFileSync(textTarget, 'utf8')).toBe(text);
    const bytes = Uint8Array.from({ length: 512 }, (_, index) => index % 256);
    const binaryTarget = path.join(dir, 'binary.bin');
    const result = await writeFileAtomic(binaryTarget, bytes);
    expect(result.bytesWritten).toBe(512);
    expect(new Uint8Array(readFileSync(binaryTarget))).toEqual(bytes);
  });

  it('writes an empty string as a 0-byte file, truncating an existing one', async () => {
    const target = path.join(dir, 'empty.txt');
    writeFileSync(target, 'something');
    const result = await writeFileAtomic(target, '');
    expect(result.bytesWritten).toBe(0);
    expect(statSync(target).size).toBe(0);
  });

  it('refuses text with a lone surrogate instead of writing mojibake, leaving the file intact', async () => {
    const target = path.join(dir, 'keep.txt');
    writeFileSync(target, 'original');
    await expect(writeFileAtomic(target, 'bad \ud800 text')).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(
      writeFileAtomic(target, Readable.from(['ok \ud83c', '\udf89 split pair', ' \udc00'])),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    expect(readFileSync(target, 'utf8')).toBe('original');
    await writeFileAtomic(target, Readable.from(['ok \ud83c', '\udf89 split pair']));
    expect(readFileSync(target, 'utf8')).toBe('ok 🎉 split pair');
    expect(tempsUnder(dir)).toEqual([]);
  });

  it('writes through a symlink: the link stays a link and its target gets the content', async () => {
    mkdirSync(path.join(dir, 'real'));
    const real = path.join(dir, 'real', 'file.txt');
    writeFileSync(real, 'old');
    chmodSync(real, 0o640);
    symlinkSync(path.join('real', 'file.txt'), path.join(dir, 'link'));
    symlinkSync('link', path.join(dir, 'link-to-link'));
    const result = await writeFileAtomic(path.join(dir, 'link-to-link'), 'through the links');
    expect(result).toMatchObject({ path: real, created: false });
    expect(lstatSync(path.join(dir, 'link')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(dir, 'link'))).toBe(path.join('real', 'file.txt'));
    expect(readFileSync(real, 'utf8')).toBe('through the links');
    expect(statSync(real).mode & 0o777).toBe(0o640);
    symlinkSync(path.join('real', 'later', 'made.txt'), path.join(dir, 'dangling'));
    const dangling = await writeFileAtomic(path.join(dir, 'dangling'), 'made');
    expect(dangling).toMatchObject({
      path: path.join(dir, 'real', 'later', 'made.txt'),
      created: true,
      dirsCreated: [path.join(dir, 'real', 'later')],
    });
    expect(lstatSync(path.join(dir, 'dangling')).isSymbolicLink()).toBe(true);
  });

  it('refuses a directory target, a file used as a directory, a NUL byte and a symlink loop', async () => {
    mkdirSync(path.join(dir, 'folder'));
    await expect(writeFileAtomic(path.join(dir, 'folder'), 'x')).rejects.toMatchObject({ code: 'wrong_kind' });
    expect(statSync(path.join(dir, 'folder')).isDirectory()).toBe(true);
    writeFileSync(path.join(dir, 'plain'), 'p');
    await expect(writeFileAtomic(path.join(dir, 'plain', 'child.txt'), 'x')).rejects.toMatchObject({
      code: 'wrong_kind',
    });
    await expect(writeFileAtomic(path.join(dir, 'nul\0.txt'), 'x')).rejects.toMatchObject({ code: 'invalid_request' });
    symlinkSync('loop-b', path.join(dir, 'loop-a'));
    symlinkSync('loop-a', path.join(dir, 'loop-b'));
    await expect(writeFileAtomic(path.join(dir, 'loop-a'), 'x')).rejects.toMatchObject({ code: 'io_error' });
    expect(readFileSync(path.join(dir, 'plain'), 'utf8')).toBe('p');
    expect(tempsUnder(dir)).toEqual([]);
  });

  it('refuses a target that became a symlink after it was checked (requireCanonical) and a reserved temp name', async () => {
    mkdirSync(path.join(dir, 'approved'));
    mkdirSync(path.join(dir, 'elsewhere'));
    const approved = path.join(dir, 'approved', 'file.txt');
    await writeFileAtomic(approved, 'first', { requireCanonical: true });
    // Another process swaps the approved directory for a link to somewhere else.
    renameSync(path.join(dir, 'approved'), path.join(dir, 'approved-old'));
    symlinkSync(path.join(dir, 'elsewhere'), path.join(dir, 'approved'));
    await expect(writeFileAtomic(approved, 'second', { requireCanonical: true })).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(readdirSync(path.join(dir, 'elsewhere'))).toEqual([]);
    await expect(
      writeFileAtomic(path.join(dir, `.x.vigil-tmp-${process.pid}-0-0123456789ab`), 'x'),
    ).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('streams an AsyncIterable and a Readable of any size chunk by chunk', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    async function* chunks(): AsyncGenerator<Uint8Array> {
      await Promise.resolve();
      for (let index = 0; index < 160; index += 1) yield chunk;
    }
    const target = path.join(dir, 'big.bin');
    const result = await writeFileAtomic(target, chunks());
    expect(result.bytesWritten).toBe(160 * 64 * 1024);
    expect(statSync(target).size).toBe(160 * 64 * 1024);
    const fromReadable = await writeFileAtomic(
      path.join(dir, 'readable.txt'),
      Readable.from([Buffer.from('one '), 'two ', Buffer.from('three')]),
    );
    expect(fromReadable.bytesWritten).toBe(13);
    expect(readFileSync(path.join(dir, 'readable.txt'), 'utf8')).toBe('one two three');
  });

  it('leaves the original intact, no temp file and no created directory when the stream fails midway', async () => {
    const target = path.join(dir, 'keep.txt');
    writeFileSync(target, 'original');
    async function* failing(): AsyncGenerator<Uint8Array> {
      await Promise.resolve();
      yield new Uint8Array(1000).fill(1);
      throw new Error('producer died');
    }
    await expect(writeFileAtomic(target, failing())).rejects.toThrow('producer died');
    expect(readFileSync(target, 'utf8')).toBe('original');
    await expect(writeFileAtomic(path.join(dir, 'fresh', 'deep', 'x.txt'), failing())).rejects.toThrow('producer died');
    expect(readdirSync(dir).sort()).toEqual(['keep.txt']);
  });

  it('serializes writes to the same path and runs different paths in parallel', async () => {
    const log: string[] = [];
    const slow = (label: string): AsyncGenerator<Uint8Array> =>
      (async function* generate() {
        log.push(`start ${label}`);
        for (let index = 0; index < 5; index += 1) {
          await new Promise((resolve) => setImmediate(resolve));
          yield new TextEncoder().encode(label);
        }
        log.push(`end ${label}`);
      })();
    const target = path.join(dir, 'same.txt');
    await Promise.all(['a', 'b', 'c', 'd'].map((label) => writeFileAtomic(target, slow(label))));
    for (let index = 0; index < log.length; index += 2) {
      expect(log[index]?.replace('start', '')).toBe(log[index + 1]?.replace('end', ''));
    }
    expect(readFileSync(target, 'utf8')).toMatch(/^(aaaaa|bbbbb|ccccc|ddddd)$/);

    // Path one does not finish until path two has started: serializing them would deadlock.
    let startedTwo: () => void = () => undefined;
    const twoStarted = new Promise<void>((resolve) => (startedTwo = resolve));
    async function* one(): AsyncGenerator<Uint8Array> {
      yield new Uint8Array([1]);
      await twoStarted;
      yield new Uint8Array([2]);
    }
    async function* two(): AsyncGenerator<Uint8Array> {
      startedTwo();
      await Promise.resolve();
      yield new Uint8Array([3]);
    }
    await Promise.all([writeFileAtomic(path.join(dir, 'one'), one()), writeFileAtomic(path.join(dir, 'two'), two())]);
    expect([...readFileSync(path.join(dir, 'one'))]).toEqual([1, 2]);
  });

  it('keeps by a hard link the file a replacement renamed into place after the ifUnchanged check, and makes no link when the check refuses the write', async () => {
    const target = path.join(dir, 'notes.md');
    const keep = path.join(dir, 'kept');
    writeFileSync(target, 'the version read');
    const identity = await readFileIdentity(target);
    await writeFileAtomic(target, 'the new version', {
      ifUnchanged: { identity },
      keepReplacedAt: keep,
      afterCheck: () => {
        // Another program saves the file (temp + rename) between the check and the rename.
        writeFileSync(path.join(dir, 'editor-tmp'), 'saved by an editor');
        renameSync(path.join(dir, 'editor-tmp'), target);
        return Promise.resolve();
      },
    });
    expect(readFileSync(target, 'utf8')).toBe('the new version');
    expect(readFileSync(keep, 'utf8')).toBe('saved by an editor');
    const failing = path.join(dir, 'kept-2');
    await expect(
      writeFileAtomic(target, 'x', { ifUnchanged: { identity: undefined }, keepReplacedAt: failing }),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect(readdirSync(dir).sort()).toEqual(['kept', 'notes.md']);
  });

  it("sweeps stale temp files of dead writers and never touches anyone else's files", async () => {
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.on('close', resolve));
    const alive = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      const names = {
        deadWriter: `.notes.md.vigil-tmp-${dead.pid}-0-0123456789ab`,
        liveWriter: `.notes.md.vigil-tmp-${alive.pid}-0-0123456789ab`,
        ownLeftover: `.notes.md.vigil-tmp-${process.pid}-0-abcdefabcdef`,
        notHidden: `notes.md.vigil-tmp-${dead.pid}-0-0123456789ab`,
        otherTool: '.notes.md.hermes-tmp.AbC123',
        shortToken: `.notes.md.vigil-tmp-${dead.pid}-0-0123`,
      };
      for (const name of Object.values(names)) writeFileSync(path.join(dir, name), 'leftover');
      await writeFileAtomic(path.join(dir, 'notes.md'), 'content');
      expect(readdirSync(dir).sort()).toEqual(
        [names.liveWriter, names.notHidden, names.otherTool, names.shortToken, 'notes.md'].sort(),
      );
    } finally {
      alive.kill('SIGKILL');
    }
  });

  it.skipIf(process.platform === 'win32')(
    'leaves the original intact and no temp behind in a read-only directory',
    async () => {
      const locked = path.join(dir, 'locked');
      mkdirSync(locked);
      const target = path.join(locked, 'file.txt');
      writeFileSync(target, 'original bytes');
      if (isRoot) {
        chmodSync(dir, 0o755);
        handToNobody(locked, target);
        chmodSync(locked, 0o500);
        const outcome = await writeAsNobody(dir, target, 'new bytes');
        expect(outcome).toMatchObject({ ok: false, code: 'io_error' });
        expect(outcome.message).toContain('permission denied');
      } else {
        chmodSync(locked, 0o500);
        await expect(writeFileAtomic(target, 'new bytes')).rejects.toMatchObject({ code: 'io_error' });
      }
      chmodSync(locked, 0o700);
      expect(readFileSync(target, 'utf8')).toBe('original bytes');
      expect(readdirSync(locked)).toEqual(['file.txt']);
    },
  );

  it.skipIf(!isRoot || process.platform !== 'linux')(
    'leaves the original intact and no temp behind when the disk is full',
    async (test) => {
      const disk = path.join(dir, 'small-disk');
      mkdirSync(disk);
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', disk], { stdio: 'ignore' });
      } catch {
        test.skip();
        return;
      }
      try {
        const target = path.join(disk, 'file.txt');
        writeFileSync(target, 'original bytes');
        const error: unknown = await writeFileAtomic(target, Buffer.alloc(1024 * 1024, 0x78)).catch(
          (caught: unknown) => caught,
        );
        expect(error).toMatchObject({ code: 'io_error', details: { errno: 'ENOSPC' } });
        expect((error as Error).message).toContain('the disk is full');
        expect(readFileSync(target, 'utf8')).toBe('original bytes');
        expect(readdirSync(disk)).toEqual(['file.txt']);
      } finally {
        execFileSync('umount', [disk]);
      }
    },
  );
});
