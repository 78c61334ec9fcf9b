import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPathInside } from '../lib/path-rules';
import { linkMounts, maxLinkMounts } from './linked-files';

/** How `linkMounts` keeps hard-linked files read-only: never one uncovered, never more mounts than the budget. */
const root = path.resolve('/work/project');

function pnpmFiles(packages: number, perPackage: number): string[] {
  const files: string[] = [];
  for (let index = 0; index < packages; index += 1)
    for (let file = 0; file < perPackage; file += 1)
      files.push(
        path.join(root, 'node_modules', '.pnpm', `p${index}@1.0.0`, 'node_modules', `p${index}`, `f${file}.js`),
      );
  return files;
}

/** The mounts a profile spends: each path kept read-only, and each folder between it and the root. */
function mounts(kept: readonly string[]): number {
  const folders = new Set<string>();
  for (const entry of kept)
    for (let folder = path.dirname(entry); folder !== root && isPathInside(folder, root); folder = path.dirname(folder))
      folders.add(folder);
  return kept.length + folders.size;
}

describe('linkMounts', () => {
  it('keeps a few files one by one, with no note', () => {
    const files = pnpmFiles(3, 2);
    expect(linkMounts(files, [root])).toEqual({ files, denyWrite: files, notes: [] });
  });

  it('keeps a pnpm tree by its .pnpm folder and a lone file elsewhere by itself, naming the folder in a note', () => {
    const lone = path.join(root, 'vendor', 'lib.js');
    const files = [...pnpmFiles(300, 5), lone];
    const protection = linkMounts(files, [root]);
    expect(protection.denyWrite).toEqual([path.join(root, 'node_modules', '.pnpm'), lone]);
    expect(protection.notes).toHaveLength(1);
    expect(protection.notes[0]).toContain(
      `${path.join(root, 'node_modules', '.pnpm')} read-only as a whole: it holds 1500 files`,
    );
  });

  it('covers every file within the mount budget, or refuses (random trees)', () => {
    const segment = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'node_modules', '.pnpm', 'lib');
    const file = fc
      .array(segment, { minLength: 0, maxLength: 5 })
      .chain((folders) => fc.integer({ min: 0, max: 400 }).map((index) => path.join(root, ...folders, `f${index}.js`)));
    fc.assert(
      fc.property(fc.uniqueArray(file, { maxLength: 600 }), (files) => {
        let protection;
        try {
          protection = linkMounts(files, [root]);
        } catch (error) {
          expect(error).toMatchObject({ code: 'conflict' });
          return;
        }
        for (const entry of files) expect(protection.denyWrite.some((kept) => isPathInside(entry, kept))).toBe(true);
        expect(protection.denyWrite).not.toContain(root);
        expect(mounts(protection.denyWrite)).toBeLessThanOrEqual(maxLinkMounts);
      }),
      { numRuns: 200 },
    );
  });
});
