import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { DirState } from './dir-state';
import { fileModes } from '../../git-store/git-objects';
import { loadStatCache, saveStatCache } from './stat-cache';

/** A made-up record, different for each number. */
function record(index: number) {
  return {
    mode: index % 5 === 0 ? fileModes.executable : fileModes.file,
    oid: (index * 7919).toString(16).padStart(40, '0'),
    size: index * 3,
    mtimeNs: 1_700_000_000_000_000_000n + BigInt(index),
    ctimeNs: 1_700_000_000_500_000_000n + BigInt(index),
    ino: 1_000_000n + BigInt(index),
  };
}

const fileCount = 120;
const fileOf = (index: number): string => `d${index % 4}/s${index % 3}/f${index}.txt`;

/** The first state: 120 files in 4×3 folders, a skipped folder and a skipped file, every tree built. */
async function firstState(): Promise<DirState> {
  const state = new DirState();
  for (let index = 0; index < fileCount; index += 1) state.setFile(fileOf(index), record(index));
  state.setSkipped('d1/node_modules', 'excluded', true);
  state.setSkipped('d2/s0/big.bin', 'oversize', false);
  await state.buildTree(() => Promise.resolve());
  state.head = 'c'.repeat(40);
  state.stampNs = 1_700_000_002_000_000_000n;
  return state;
}

/** One change a snapshot may make: most keep the folders' shape (edits), some change it. */
type Change =
  | { readonly kind: 'edit'; readonly file: number; readonly version: number }
  | { readonly kind: 'add'; readonly file: number }
  | { readonly kind: 'remove'; readonly file: number }
  | { readonly kind: 'skip'; readonly file: number };

function apply(state: DirState, change: Change): void {
  const rel = fileOf(change.file % fileCount);
  if (change.kind === 'edit')
    state.setFile(rel, { ...record(change.file + change.version * 1000), mode: fileModes.file });
  else if (change.kind === 'add') state.setFile(`d${change.file % 4}/new${change.file}.txt`, record(change.file));
  else if (change.kind === 'remove') state.remove(rel);
  else state.setSkipped(rel, 'excluded', false);
}

const changeArbitrary: fc.Arbitrary<Change> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('edit' as const), file: fc.nat(500), version: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('add' as const), file: fc.nat(500) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), file: fc.nat(500) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('skip' as const), file: fc.nat(500) }) },
);

describe('the stat cache, saved again after a snapshot', () => {
  let base: string;
  let remove: () => Promise<void>;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-statpatch-'));
  });
  afterEach(async () => {
    await remove();
  });

  it('is patched in place for a one-file change: the same file, byte for byte what a full save writes', async () => {
    const file = path.join(base, 'cache');
    await saveStatCache(file, '/project', await firstState());
    const before = statSync(file);
    const loaded = await loadStatCache(file, '/project');
    if (loaded === undefined) throw new Error('no cache');
    loaded.setFile(fileOf(7), { ...record(7), size: 999, oid: 'e'.repeat(40) });
    await loaded.buildTree(() => Promise.resolve());
    loaded.head = 'd'.repeat(40);
    loaded.stampNs += 1_000n;
    await saveStatCache(file, '/project', loaded);
    // Written in place, not replaced: one rename and a rewrite of the whole file spared.
    expect(statSync(file).ino).toBe(before.ino);
    const fresh = path.join(base, 'fresh');
    await saveStatCache(fresh, '/project', loaded);
    expect(readFileSync(file).equals(readFileSync(fresh))).toBe(true);
    const reloaded = await loadStatCache(file, '/project');
    expect(reloaded?.file(fileOf(7))?.oid).toBe('e'.repeat(40));
    expect(reloaded?.head).toBe('d'.repeat(40));
  });

  it('is written anew when the file changed since it was loaded (another writer), never patched over it', async () => {
    const file = path.join(base, 'cache');
    await saveStatCache(file, '/project', await firstState());
    const loaded = await loadStatCache(file, '/project');
    if (loaded === undefined) throw new Error('no cache');
    const other = await firstState();
    other.head = 'f'.repeat(40);
    await saveStatCache(file, '/project', other);
    loaded.setFile(fileOf(3), { ...record(3), oid: 'e'.repeat(40) });
    await loaded.buildTree(() => Promise.resolve());
    await saveStatCache(file, '/project', loaded);
    const fresh = path.join(base, 'fresh');
    await saveStatCache(fresh, '/project', loaded);
    expect(readFileSync(file).equals(readFileSync(fresh))).toBe(true);
  });

  it('holds, for any mix of changes over several saves, exactly what a full save of the same state holds', async () => {
    let [patched, rewritten] = [0, 0];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(changeArbitrary, { maxLength: 4 }), { minLength: 1, maxLength: 4 }),
        async (rounds) => {
          const file = path.join(base, 'cache');
          const fresh = path.join(base, 'fresh');
          await saveStatCache(file, '/project', await firstState());
          const state = await loadStatCache(file, '/project');
          if (state === undefined) throw new Error('no cache');
          for (const [round, changes] of rounds.entries()) {
            for (const change of changes) apply(state, change);
            await state.buildTree(() => Promise.resolve());
            state.head = String(round).repeat(40).slice(0, 40);
            state.stampNs += 1_000_000n;
            const inode = statSync(file).ino;
            await saveStatCache(file, '/project', state);
            if (statSync(file).ino === inode) patched += 1;
            else rewritten += 1;
            const saved = readFileSync(file);
            // The reference: the same state written whole (to another file, so it cannot be patched).
            writeFileSync(fresh, '');
            await saveStatCache(fresh, '/project', state);
            expect(saved.equals(readFileSync(fresh))).toBe(true);
            const reloaded = await loadStatCache(file, '/project');
            expect(new Map(reloaded?.files())).toEqual(new Map(state.files()));
            expect(reloaded?.skippedPaths()).toEqual(state.skippedPaths());
          }
        },
      ),
      { numRuns: 60, seed: 31 },
    );
    // Both ways were taken: saves patched in place, and saves written anew after a change of shape.
    expect(patched).toBeGreaterThan(0);
    expect(rewritten).toBeGreaterThan(0);
  });
});
