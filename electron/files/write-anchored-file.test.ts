import { mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { editAnchoredFile } from './edit-file-atomic';
import { anchorFile } from './folder-anchor';
import { checkFoldersByPath } from './held-directory';
import { isVigilTempFile } from './vigil-temp-name';
import { writeAnchoredFile } from './write-anchored-file';

let base: string;
let remove: () => Promise<void>;
let workspace: string;
let outside: string;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-anchored-'));
  workspace = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  mkdirSync(path.join(workspace, 'sub'), { recursive: true });
  mkdirSync(outside);
});
afterEach(async () => {
  await remove();
});
afterAll(() => {
  checkFoldersByPath(false);
});

/** Puts a symlink to the outside folder where ws/sub was (the folder itself parked inside, as ws/parked). */
function swapSubForLink(): void {
  renameSync(path.join(workspace, 'sub'), path.join(workspace, 'parked'));
  symlinkSync(outside, path.join(workspace, 'sub'));
}

/** Every file under a folder, relative. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

// Linux holds folders by descriptor (/proc/self/fd); other platforms check them by path and identity.
const modes = process.platform === 'linux' ? (['descriptor', 'path'] as const) : (['path'] as const);

describe.each(modes)('a file anchored when its path was checked (folders held by %s)', (mode) => {
  beforeEach(() => {
    checkFoldersByPath(mode === 'path');
  });

  it('writes a new file, creating the missing folders inside the anchored one, and reports them', async () => {
    const file = await anchorFile(path.join(workspace, 'sub', 'a', 'b', 'c.txt'));
    expect(file.folder).toMatchObject({ path: path.join(workspace, 'sub'), missing: ['a', 'b'] });
    const result = await writeAnchoredFile(file, 'hello');
    expect(result).toEqual({
      path: file.path,
      bytesWritten: 5,
      created: true,
      dirsCreated: [path.join(workspace, 'sub', 'a'), path.join(workspace, 'sub', 'a', 'b')],
    });
    expect(readFileSync(file.path, 'utf8')).toBe('hello');
    expect(filesUnder(workspace)).toEqual([path.join('sub', 'a', 'b', 'c.txt')]);
  });

  it('refuses (conflict) a write once its folder was swapped for a symlink to outside: nothing outside, no temp anywhere', async () => {
    const file = await anchorFile(path.join(workspace, 'sub', 'x.txt'));
    swapSubForLink();
    await expect(writeAnchoredFile(file, 'escaped')).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining(path.join(workspace, 'sub')) as unknown,
    });
    expect(filesUnder(outside)).toEqual([]);
    expect(filesUnder(path.join(workspace, 'parked'))).toEqual([]);
  });

  it('refuses a write whose folder was replaced by another folder at the same path, and missing folders under a swapped one', async () => {
    const file = await anchorFile(path.join(workspace, 'sub', 'x.txt'));
    const deep = await anchorFile(path.join(workspace, 'sub', 'new', 'deep', 'y.txt'));
    renameSync(path.join(workspace, 'sub'), path.join(workspace, 'parked'));
    mkdirSync(path.join(workspace, 'sub'));
    await expect(writeAnchoredFile(file, 'x')).rejects.toMatchObject({ code: 'conflict' });
    await expect(writeAnchoredFile(deep, 'y')).rejects.toMatchObject({ code: 'conflict' });
    expect(readdirSync(path.join(workspace, 'sub'))).toEqual([]);
    symlinkSync(outside, path.join(workspace, 'other'));
    renameSync(path.join(workspace, 'other'), path.join(workspace, 'sub', 'new'));
    expect(filesUnder(outside)).toEqual([]);
  });

  it('takes a new file back out when its folder moved between the last check and the rename', async () => {
    const file = await anchorFile(path.join(workspace, 'sub', 'x.txt'));
    const moved = path.join(workspace, 'moved');
    await expect(
      writeAnchoredFile(file, 'x', { afterCheck: () => rename(path.join(workspace, 'sub'), moved) }),
    ).rejects.toMatchObject({ code: 'conflict' });
    // Held by descriptor, the write even cleans up its temp file; by path, a temp left in the moved folder is swept by the next write there.
    const left = filesUnder(moved);
    expect(left.filter((name) => !isVigilTempFile(name))).toEqual([]);
    if (mode === 'descriptor') expect(left).toEqual([]);
  });

  it('says so when a replaced file ended up in a folder that moved meanwhile', async () => {
    writeFileSync(path.join(workspace, 'sub', 'x.txt'), 'old');
    const file = await anchorFile(path.join(workspace, 'sub', 'x.txt'));
    const moved = path.join(workspace, 'moved');
    const attempt = writeAnchoredFile(file, 'new', { afterCheck: () => rename(path.join(workspace, 'sub'), moved) });
    await expect(attempt).rejects.toMatchObject({ code: 'conflict' });
    if (mode === 'descriptor') await expect(attempt).rejects.toThrow(/was replaced, but its folder was moved/u);
  });

  it('edits only the file in the anchored folder: a swapped folder or a file swapped for a symlink is refused', async () => {
    writeFileSync(path.join(workspace, 'sub', 'p.txt'), 'value: a');
    writeFileSync(path.join(outside, 'p.txt'), 'value: a');
    const file = await anchorFile(path.join(workspace, 'sub', 'p.txt'));
    await editAnchoredFile(file, (current) => current.toString().replace(': a', ': b'));
    expect(readFileSync(file.path, 'utf8')).toBe('value: b');
    renameSync(file.path, path.join(workspace, 'sub', 'kept.txt'));
    symlinkSync(path.join(outside, 'p.txt'), file.path);
    await expect(editAnchoredFile(file, () => 'pwned')).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('symbolic link') as unknown,
    });
    swapSubForLink();
    await expect(editAnchoredFile(file, () => 'pwned')).rejects.toMatchObject({ code: 'conflict' });
    expect(readFileSync(path.join(outside, 'p.txt'), 'utf8')).toBe('value: a');
    expect(filesUnder(outside)).toEqual(['p.txt']);
  });
});
