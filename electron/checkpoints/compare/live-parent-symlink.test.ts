import { lstatSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { writeFiles } from '../test-support/restore-fixtures';
import { liveDiffAfter, shownLive, swapFolderForSymlink as swapToOutside } from '../test-support/linked-folder-swap';
import { preparePatch } from '../../tools/patch/prepare';
import { readLiveFile } from '../../files';
import { hashObject } from '../../git-store';
import { hashLiveFile } from './live-file-hash';
import { readDiskVersion } from './disk-version';
import { noKnownHashes } from '../snapshot/known-hashes';
import { testSession } from '../../tools/test-support/test-session';

/**
 * A live read of a workspace file must not follow a symlink an agent swapped in after the
 * check, wherever on the path it is. The live reader opens with O_NOFOLLOW, which guards the last
 * name only: a folder on the way swapped for a symlink to a folder outside the workspace (holding a
 * file of the same name) is followed, and the outside file is read as the workspace's.
 */

let base: string;
let remove: () => Promise<void>;
let outside: string;
beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-live-parent-symlink-'));
  outside = path.join(base, 'outside');
  mkdirSync(outside);
});
afterEach(async () => {
  await remove();
});

/** Swaps the folder `folder` for a symlink to the outside folder (the agent's move, after Vigil's check). */
function swapFolderForSymlink(folder: string): void {
  swapToOutside(folder, outside);
}

/** What a refusal to read through the swapped folder says. */
const outsideLinkMessage = 'sub is a symbolic link to a folder outside the workspace; Vigil does not read through it';

describe('a folder on the way swapped for a symlink after the check', () => {
  it("is not followed by a diff's live side: the diff says the folder is a link outside the workspace, and never shows the outside file", async () => {
    const dir = path.join(base, 'project');
    const engine = new CheckpointService({ root: path.join(base, 'home', 'checkpoints'), logger: silentLogger });
    try {
      writeFiles(dir, { 'sub/a.txt': 'one\n' });
      const sides = await liveDiffAfter(engine, dir, () => writeFileSync(path.join(dir, 'sub', 'a.txt'), 'one\ntwo\n'));
      const [change] = sides.changes;
      if (change === undefined) throw new Error('expected one change');
      writeFileSync(path.join(outside, 'a.txt'), 'OUTSIDE SECRET\n');
      swapFolderForSymlink(path.join(dir, 'sub'));
      const shown = await shownLive(engine, sides, change);
      expect(shown).not.toContain('OUTSIDE SECRET');
      expect(shown).toContain(outsideLinkMessage);
    } finally {
      await engine.dispose();
    }
  });

  it("is not followed by a patch's proposal (the approval never shows the outside file patched)", async () => {
    const workspace = path.join(base, 'ws');
    mkdirSync(path.join(workspace, 'sub'), { recursive: true });
    writeFileSync(path.join(workspace, 'sub', 'p.txt'), 'value: a\n');
    const session = testSession(workspace, path.join(base, 'home'));
    const prepared = await preparePatch({ path: 'sub/p.txt', old_string: 'value: a', new_string: 'value: b' }, session);
    writeFileSync(path.join(outside, 'p.txt'), 'value: a\nOUTSIDE SECRET\n');
    swapFolderForSymlink(path.join(workspace, 'sub'));
    // No proposal at all, as for any file the patch could not apply to (it refuses the swap itself).
    expect(await prepared.proposed?.()).toBeUndefined();
  });
});

describe("a symlink entry's folder swapped for a symlink to a folder holding a same-named link", () => {
  it("is not read there by a diff's live side: it is refused as a file there is (the folder is a link), never the other link's target", async () => {
    const dir = path.join(base, 'project');
    const engine = new CheckpointService({ root: path.join(base, 'home', 'checkpoints'), logger: silentLogger });
    try {
      writeFiles(dir, { 'sub/a.txt': 'one\n' });
      symlinkSync('inside-one', path.join(dir, 'sub', 'l'));
      const sides = await liveDiffAfter(engine, dir, () => {
        writeFileSync(path.join(dir, 'sub', 'a.txt'), 'one\ntwo\n');
        rmSync(path.join(dir, 'sub', 'l'));
        symlinkSync('inside-two', path.join(dir, 'sub', 'l'));
      });
      expect(sides.changes.map((change) => change.path)).toEqual(['sub/a.txt', 'sub/l']);
      writeFileSync(path.join(outside, 'a.txt'), 'OUTSIDE SECRET\n');
      symlinkSync('OUTSIDE-TARGET', path.join(outside, 'l'));
      swapFolderForSymlink(path.join(dir, 'sub'));
      const [file, link] = await Promise.all(sides.changes.map((change) => shownLive(engine, sides, change)));
      expect(link).not.toContain('OUTSIDE-TARGET');
      expect(link).toContain(outsideLinkMessage);
      expect(file).toContain(outsideLinkMessage);
    } finally {
      await engine.dispose();
    }
  });

  it.skipIf(process.platform !== 'linux')(
    "is not hashed there by a live tree's comparison: refused at once, saying the folder is a link outside the workspace",
    async () => {
      const dir = path.join(base, 'project');
      mkdirSync(path.join(dir, 'sub'), { recursive: true });
      symlinkSync('inside-one', path.join(dir, 'sub', 'l'));
      const looked = lstatSync(path.join(dir, 'sub', 'l'), { bigint: true });
      expect(await hashLiveFile(dir, 'sub/l', 1 << 20, noKnownHashes, looked)).toEqual({
        mode: '120000',
        oid: hashObject('blob', Buffer.from('inside-one')),
      });
      symlinkSync('OUTSIDE-TARGET', path.join(outside, 'l'));
      swapFolderForSymlink(path.join(dir, 'sub'));
      await expect(hashLiveFile(dir, 'sub/l', 1 << 20, noKnownHashes, looked)).rejects.toMatchObject({
        code: 'wrong_kind',
        message: expect.stringContaining(outsideLinkMessage) as unknown,
      });
    },
  );
});

describe("a symlink entry's folder swapped for a symlink, read as a version on disk (a restore's plan and check)", () => {
  it.skipIf(process.platform !== 'linux')(
    'is found behind a linked folder (no version), never taken as the other link',
    async () => {
      const dir = path.join(base, 'project');
      mkdirSync(path.join(dir, 'sub'), { recursive: true });
      symlinkSync('inside-one', path.join(dir, 'sub', 'l'));
      const link = path.join(dir, 'sub', 'l');
      expect((await readDiskVersion(link, undefined, { within: dir })).file).toEqual({
        mode: '120000',
        oid: hashObject('blob', Buffer.from('inside-one')),
      });
      symlinkSync('OUTSIDE-TARGET', path.join(outside, 'l'));
      swapFolderForSymlink(path.join(dir, 'sub'));
      expect(await readDiskVersion(link, undefined, { within: dir })).toMatchObject({
        file: undefined,
        linkedFolder: { relativePath: 'sub', isOutside: true },
      });
    },
  );
});

describe('a workspace reached through a symlink of its own (a path the user chose)', () => {
  it('reads as usual: only a symlink below the folder counts', async () => {
    const real = path.join(base, 'real-ws');
    mkdirSync(path.join(real, 'sub'), { recursive: true });
    writeFileSync(path.join(real, 'sub', 'f.txt'), 'inside\n');
    const linked = path.join(base, 'linked-ws');
    symlinkSync(real, linked);
    const read = await readLiveFile(path.join(linked, 'sub', 'f.txt'), { within: linked });
    expect(read.kind === 'read' && read.content.toString()).toBe('inside\n');
    swapFolderForSymlink(path.join(real, 'sub'));
    writeFileSync(path.join(outside, 'f.txt'), 'OUTSIDE SECRET\n');
    expect(await readLiveFile(path.join(linked, 'sub', 'f.txt'), { within: linked })).toMatchObject({
      kind: 'linked-folder',
      linked: { folder: path.join(linked, 'sub'), relativePath: 'sub', isOutside: true },
    });
  });
});
