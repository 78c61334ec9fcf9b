import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { gitEnv, runGit } from '../test-support/restore-fixtures';
import { readEwahBitmap } from './ewah-bitmap';
import { readIndexEntries } from './index-entries';

/**
 * The EWAH decoder against bitmaps git itself wrote: a split index's delete and replace bitmaps
 * (positions chosen across word boundaries), and a pack's reachability bitmap, whose type bitmaps
 * (which objects are commits, trees, blobs) hold long runs of set bits and are checked against
 * the pack's own object list.
 */

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-ewah-'));
});
afterEach(async () => {
  await remove();
});

const git = (args: readonly string[]): string =>
  runGit(['-c', 'user.name=t', '-c', 'user.email=t@e.invalid', ...args], { cwd: dir });

describe('readEwahBitmap', () => {
  it("reads a split index's delete and replace bitmaps as git wrote them", () => {
    git(['init', '-q', '.']);
    const name = (position: number): string => `f${String(position).padStart(3, '0')}.txt`;
    const anHourAgo = new Date(Date.now() - 3_600_000);
    for (let position = 0; position < 300; position += 1) {
      writeFileSync(path.join(dir, name(position)), `${position}\n`);
      // Not racily clean: git would copy such entries into the split index as replacements.
      utimesSync(path.join(dir, name(position)), anHourAgo, anHourAgo);
    }
    git(['add', '.']);
    git(['update-index', '--split-index']);
    const deleted = [0, 63, 64, 65, 130, 299];
    const replaced = [1, 62, 127, 128, 200, 257];
    git(['rm', '-q', '--cached', ...deleted.map(name)]);
    for (const position of replaced) writeFileSync(path.join(dir, name(position)), `changed ${position}\n`);
    git(['add', ...replaced.map(name)]);

    const index = readIndexEntries(readFileSync(path.join(dir, '.git', 'index')));
    if ('error' in index) throw new Error(index.error);
    const link = index.extensions.get('link');
    expect(link, 'git wrote a split index').toBeDefined();
    const bitmaps = (link as Buffer).subarray(20);
    const deletes = readEwahBitmap(bitmaps, 0, 300);
    if ('error' in deletes) throw new Error(deletes.error);
    const replaces = readEwahBitmap(bitmaps, deletes.end, 300);
    if ('error' in replaces) throw new Error(replaces.error);
    expect(deletes.bits).toEqual(deleted);
    expect(replaces.bits).toEqual(replaced);
    expect(replaces.end).toBe(bitmaps.length);
  });

  it("reads a pack bitmap's type bitmaps (long runs) as the pack's objects say", () => {
    git(['init', '-q', '.']);
    // 150 commits in one git process: each changes one of seven files.
    const stream = Array.from({ length: 150 }, (_, commit) =>
      [
        'commit refs/heads/main',
        `committer t <t@e.invalid> ${1_700_000_000 + commit} +0000`,
        'data 1',
        'c',
        `M 100644 inline file-${commit % 7}.txt`,
        `data ${`version ${commit}\n`.length}`,
        `version ${commit}`,
        '',
      ].join('\n'),
    ).join('');
    execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: stream, env: gitEnv });
    git(['repack', '-adbq']);
    const packDir = path.join(dir, '.git', 'objects', 'pack');
    const pack = readdirSync(packDir).find((file) => file.endsWith('.bitmap')) as string;
    const idx = path.join(packDir, pack.replace(/\.bitmap$/, '.idx'));
    // Bitmap positions are the objects in pack order (by offset).
    const byOffset = execFileSync('git', ['show-index'], { cwd: dir, input: readFileSync(idx), encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((line) => line.split(' '))
      .map(([offset, id]) => ({ offset: Number(offset), id: id as string }))
      .sort((left, right) => left.offset - right.offset);
    const types = new Map(
      git(['cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype)'])
        .split('\n')
        .map((line) => line.split(' ') as [string, string]),
    );
    const bytes = readFileSync(path.join(packDir, pack));
    expect(bytes.toString('latin1', 0, 4)).toBe('BITM');
    // Header: signature, version, flags, entry count, pack checksum; then the commit, tree, blob and tag bitmaps.
    let offset = 4 + 2 + 2 + 4 + 20;
    let sawRunOfOnes = false;
    for (const type of ['commit', 'tree', 'blob', 'tag']) {
      sawRunOfOnes ||= (bytes.readUInt32BE(offset + 12) & 1) === 1;
      const read = readEwahBitmap(bytes, offset, byOffset.length);
      if ('error' in read) throw new Error(read.error);
      const expected = byOffset.flatMap((object, position) => (types.get(object.id) === type ? [position] : []));
      expect(read.bits, `${type} bitmap`).toEqual(expected);
      offset = read.end;
    }
    expect(sawRunOfOnes, 'a bitmap opens with a run of set bits (150 commits in a row)').toBe(true);
  });

  it('reports a damaged bitmap instead of reading past it or past the positions it may name', () => {
    const bitmap = Buffer.alloc(4 + 4 + 16 + 4);
    bitmap.writeUInt32BE(70, 0);
    bitmap.writeUInt32BE(2, 4);
    bitmap.writeUInt32BE(2, 8); // a marker word: no run, one literal word
    bitmap.writeUInt32BE(1 << 5, 16); // the literal word's high half: bit 37 is position 37
    expect(readEwahBitmap(bitmap, 0, 70)).toEqual({ bits: [37], end: bitmap.length });
    expect(readEwahBitmap(bitmap, 0, 37)).toHaveProperty('error');
    expect(readEwahBitmap(bitmap.subarray(0, 20), 0, 70)).toHaveProperty('error');
    bitmap.writeUInt32BE(4, 8); // two literal words claimed, one held
    expect(readEwahBitmap(bitmap, 0, 70)).toHaveProperty('error');
    bitmap.writeUInt32BE(0, 8);
    bitmap.writeUInt32BE(0xffff_ffff, 12); // a run of set bits four billion words long
    expect(readEwahBitmap(bitmap, 0, 70)).toHaveProperty('error');
  });
});
