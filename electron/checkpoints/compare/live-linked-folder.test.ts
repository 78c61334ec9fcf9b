import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { runGit, writeFiles } from '../test-support/restore-fixtures';
import { swapFolderForSymlink } from '../test-support/linked-folder-swap';
import { readDiskVersion } from './disk-version';
import { hashLiveFile } from './live-file-hash';
import { noKnownHashes } from '../snapshot/known-hashes';

/**
 * A regular file's live read (a diff's live tree, a restore's version on disk) must not follow a folder
 * on the way that is a symbolic link, even when it was swapped in before the file was first looked at
 * (so its lstat already went through the link and the dev/ino check compares the outside file with
 * itself). A snapshot stores such a folder as a link (mode 120000), never what it points at, so the
 * file below it is refused with that reason, wherever the link points.
 */

let base: string;
let remove: () => Promise<void>;
let dir: string;
let outside: string;
beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-live-linked-folder-'));
  dir = path.join(base, 'project');
  outside = path.join(base, 'outside');
  writeFiles(dir, { 'sub/a.txt': 'inside\n', 'top.txt': 'top\n' });
  writeFiles(outside, { 'a.txt': 'OUTSIDE SECRET\n' });
});
afterEach(async () => {
  await remove();
});

/** The blob id git itself gives `content`. */
function gitBlobId(content: string): string {
  return execFileSync('git', ['hash-object', '--stdin'], { input: content }).toString().trim();
}

describe.skipIf(process.platform !== 'linux')('a folder swapped for a symlink before the file is looked at', () => {
  it("is not hashed through by a live tree's comparison: refused, saying the folder is a link outside the workspace", async () => {
    expect(await hashLiveFile(dir, 'sub/a.txt', 1 << 20, noKnownHashes)).toEqual({
      mode: '100644',
      oid: gitBlobId('inside\n'),
    });
    swapFolderForSymlink(path.join(dir, 'sub'), outside);
    await expect(hashLiveFile(dir, 'sub/a.txt', 1 << 20, noKnownHashes)).rejects.toMatchObject({
      code: 'wrong_kind',
      message: expect.stringContaining(
        'sub is a symbolic link to a folder outside the workspace; Vigil does not read through it',
      ) as unknown,
    });
    // A path with no symlink on the way reads as before.
    expect(await hashLiveFile(dir, 'top.txt', 1 << 20, noKnownHashes)).toEqual({
      mode: '100644',
      oid: gitBlobId('top\n'),
    });
  });

  it('is not read through as a version on disk (a restore plan, its check, the line restore read-back): no version, the link named', async () => {
    const file = path.join(dir, 'sub', 'a.txt');
    expect((await readDiskVersion(file, undefined, { within: dir })).file?.oid).toBe(gitBlobId('inside\n'));
    swapFolderForSymlink(path.join(dir, 'sub'), outside);
    const found = await readDiskVersion(file, undefined, { keepContent: true, within: dir });
    expect(found.file).toBeUndefined();
    expect(found.content).toBeUndefined();
    expect(found.linkedFolder).toEqual({ folder: path.join(dir, 'sub'), relativePath: 'sub', isOutside: true });
    expect((await readDiskVersion(path.join(dir, 'top.txt'), undefined, { within: dir })).file?.oid).toBe(
      gitBlobId('top\n'),
    );
  });
});

describe.skipIf(process.platform !== 'linux')('a folder that is a symlink to another folder of the workspace', () => {
  it('is stored as a link by a checkpoint, so the file below it is not read live either (named as an inside link)', async () => {
    mkdirSync(path.join(dir, 'real'));
    writeFileSync(path.join(dir, 'real', 'b.txt'), 'real b\n');
    symlinkSync('real', path.join(dir, 'link'));
    const root = path.join(base, 'home', 'checkpoints');
    const engine = new CheckpointService({ root, logger: silentLogger });
    try {
      const outcome = await engine.checkpoint(dir, { reason: 'before write_file' });
      if (outcome.kind !== 'created') throw new Error('expected a new checkpoint');
      // git's own view of the store: `link` is a symlink entry holding its target text; nothing is stored below it.
      const listing = runGit(['--git-dir', engine.gitdir, 'ls-tree', '-r', outcome.checkpoint.tree]).split('\n');
      expect(listing).toContain(`120000 blob ${gitBlobId('real')}\tlink`);
      expect(listing.filter((line) => line.endsWith('\tlink/b.txt'))).toEqual([]);
    } finally {
      await engine.dispose();
    }
    await expect(hashLiveFile(dir, 'link/b.txt', 1 << 20, noKnownHashes)).rejects.toMatchObject({
      code: 'wrong_kind',
      message: expect.stringContaining('link is a symbolic link to another folder of the workspace') as unknown,
    });
    const found = await readDiskVersion(path.join(dir, 'link', 'b.txt'), undefined, { within: dir });
    expect(found.file).toBeUndefined();
    expect(found.linkedFolder).toMatchObject({ relativePath: 'link', isOutside: false });
    // The real folder reads as usual, and the outside file was never changed.
    expect(await hashLiveFile(dir, 'real/b.txt', 1 << 20, noKnownHashes)).toEqual({
      mode: '100644',
      oid: gitBlobId('real b\n'),
    });
    expect(readFileSync(path.join(outside, 'a.txt'), 'utf8')).toBe('OUTSIDE SECRET\n');
  });
});
