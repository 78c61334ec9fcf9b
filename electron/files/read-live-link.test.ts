import { mkdirSync, renameSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { readLiveLink } from './read-live-link';

/**
 * A live symlink's target, read inside a folder an agent controls: a folder on the way swapped for a
 * symlink to another folder holding a link of the same name must not give that other link's target.
 */

let base: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-live-link-'));
});
afterEach(async () => {
  await remove();
});

/** What `readLiveLink` found, as text. */
async function shown(link: string, within: string): Promise<string> {
  const read = await readLiveLink(link, within);
  if (read.kind === 'linked-folder') return `linked-folder ${read.linked.relativePath}`;
  return read.kind === 'read' ? read.target.toString() : read.kind;
}

describe('readLiveLink', () => {
  it('reads a link in the folder itself and in a folder below it', async () => {
    const ws = path.join(base, 'ws');
    mkdirSync(path.join(ws, 'sub'), { recursive: true });
    symlinkSync('top-target', path.join(ws, 'top'));
    symlinkSync('../top-target', path.join(ws, 'sub', 'l'));
    expect(await shown(path.join(ws, 'top'), ws)).toBe('top-target');
    expect(await shown(path.join(ws, 'sub', 'l'), ws)).toBe('../top-target');
  });

  it.skipIf(process.platform !== 'linux')(
    'reports a folder on the way swapped for a symlink to a folder with a same-named link, naming the outermost linked folder',
    async () => {
      const ws = path.join(base, 'ws');
      const other = path.join(base, 'other');
      mkdirSync(path.join(ws, 'a', 'sub'), { recursive: true });
      mkdirSync(path.join(other, 'sub'), { recursive: true });
      symlinkSync('inside-target', path.join(ws, 'a', 'sub', 'l'));
      symlinkSync('OTHER-TARGET', path.join(other, 'sub', 'l'));
      symlinkSync('OTHER-TARGET', path.join(other, 'l'));
      // The link's own folder swapped, then a folder above it.
      renameSync(path.join(ws, 'a', 'sub'), path.join(ws, 'a', 'sub.moved'));
      symlinkSync(path.join(other, 'sub'), path.join(ws, 'a', 'sub'));
      expect(await shown(path.join(ws, 'a', 'sub', 'l'), ws)).toBe('linked-folder a/sub');
      renameSync(path.join(ws, 'a'), path.join(ws, 'a.moved'));
      symlinkSync(other, path.join(ws, 'a'));
      expect(await shown(path.join(ws, 'a', 'sub', 'l'), ws)).toBe('linked-folder a');
      expect(await shown(path.join(ws, 'a', 'l'), ws)).toBe('linked-folder a');
    },
  );

  it('reads as usual through a workspace that is itself a symlink (a path the user chose)', async () => {
    const real = path.join(base, 'real-ws');
    mkdirSync(path.join(real, 'sub'), { recursive: true });
    symlinkSync('inside-target', path.join(real, 'top'));
    symlinkSync('inside-target', path.join(real, 'sub', 'l'));
    const linked = path.join(base, 'linked-ws');
    symlinkSync(real, linked);
    expect(await shown(path.join(linked, 'top'), linked)).toBe('inside-target');
    expect(await shown(path.join(linked, 'sub', 'l'), linked)).toBe('inside-target');
  });

  it('throws what a readlink by path throws: ENOENT when gone, EINVAL when no longer a link', async () => {
    const ws = path.join(base, 'ws');
    mkdirSync(path.join(ws, 'sub'), { recursive: true });
    await expect(readLiveLink(path.join(ws, 'sub', 'gone'), ws)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readLiveLink(path.join(ws, 'nothing', 'gone'), ws)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readLiveLink(path.join(ws, 'sub'), ws)).rejects.toMatchObject({ code: 'EINVAL' });
  });
});
