import { lstatSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { createPathScope, overlayReader, readLiveTree, type DiskVersion } from '../compare';
import { applyRestorePlan } from './restore-apply';
import { planRestore, type PlanInput, type RestorePlan } from './restore-plan';
import { createWriteLedger } from './restore-write-ledger';
import { entryOf, gitCommit, initBareStore, isoTreeReader, writeFiles } from '../test-support/restore-fixtures';
import { swapFolderForSymlink } from '../test-support/linked-folder-swap';

/**
 * A restore plan judges each file it restores or deletes by the version on disk. When a folder on the
 * way was swapped for a symlink after the directory was read (here: before the plan looks, race-free),
 * that read must not go through the link to a same-named file outside the workspace: the plan marks the
 * file with that reason, and the restore neither reads nor writes through the link.
 */

let root: string;
let remove: () => Promise<void>;
let store: string;
let dir: string;
let outside: string;
const rules = { maxFileBytes: 1024 * 1024, ignoredFolders: [] };
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-plan-linked-folder-'));
  store = path.join(root, 'store');
  dir = path.join(root, 'work');
  outside = path.join(root, 'outside');
  initBareStore(store);
  writeFiles(dir, { 'sub/a.txt': 'a v1\n', 'top.txt': 'top v1\n' });
  writeFiles(outside, { 'a.txt': 'OUTSIDE SECRET\n' });
});
afterEach(async () => {
  await remove();
});

/** The plan's input: the checkpoint (both files at v1), the directory read now (both at v2), and `seen` when applying. */
async function planInput(seen?: PlanInput['seen']): Promise<PlanInput> {
  const checkpoint = entryOf(store, dir, gitCommit(store, dir, 'checkpoint'));
  writeFiles(dir, { 'sub/a.txt': 'a v2\n', 'top.txt': 'top v2\n' });
  const scope = createPathScope([]);
  const live = await readLiveTree(dir, rules, scope);
  return {
    dir,
    checkpoint,
    scope,
    current: { tree: live.root, reader: overlayReader(live, isoTreeReader(store)) },
    maxFileBytes: rules.maxFileBytes,
    ledger: createWriteLedger(path.join(root, 'written.jsonl')),
    ...(seen && { seen }),
  };
}

/** Applies `plan` with the versions its planning found, as a restore does. */
function applyAsPlanned(
  input: PlanInput,
  plan: RestorePlan,
  versions: Map<string, DiskVersion>,
): ReturnType<typeof applyRestorePlan> {
  return applyRestorePlan({
    plan,
    checkpointTree: input.checkpoint.tree,
    reader: input.current.reader,
    readBlob: (oid) => isoTreeReader(store).readBlob(oid),
    seen: versions,
  });
}

const linkedNote =
  'sub is a symbolic link to a folder outside the workspace now; Vigil neither reads nor writes through it';

describe.skipIf(process.platform !== 'linux')('a restore plan when a folder on the way became a symlink', () => {
  it('marks the file behind it (preview), instead of judging the outside file', async () => {
    const input = await planInput();
    swapFolderForSymlink(path.join(dir, 'sub'), outside);
    const plan = await planRestore(input);
    const line = plan.entries.find((entry) => entry.path === 'sub/a.txt');
    expect(line).toMatchObject({
      action: 'skip',
      reason: 'blocked',
      note: expect.stringContaining(linkedNote) as unknown,
    });
    // A path with no symlink on the way is planned as before.
    expect(plan.entries.find((entry) => entry.path === 'top.txt')?.action).toBe('restore');
  });

  it('marks it when applying too, keeps no version of it for the writes, and the restore writes nothing through the link', async () => {
    const seen = { known: undefined, versions: new Map<string, DiskVersion>() };
    const input = await planInput(seen);
    swapFolderForSymlink(path.join(dir, 'sub'), outside);
    const plan = await planRestore(input);
    expect(plan.entries.map((entry) => `${entry.action} ${entry.path}`)).toEqual(['skip sub/a.txt', 'restore top.txt']);
    expect(plan.entries[0]?.note).toContain(linkedNote);
    expect([...seen.versions.keys()]).toEqual(['top.txt']);
    const applied = await applyAsPlanned(input, plan, seen.versions);
    expect(applied.outcomes.map((outcome) => `${outcome.path} ${outcome.result}`)).toEqual([
      'sub/a.txt skipped',
      'top.txt done',
    ]);
    expect(readFileSync(path.join(dir, 'top.txt'), 'utf8')).toBe('top v1\n');
    expect(readFileSync(path.join(outside, 'a.txt'), 'utf8')).toBe('OUTSIDE SECRET\n');
    expect(lstatSync(path.join(dir, 'sub')).isSymbolicLink()).toBe(true);
  });

  it('planned before the swap, is refused by the write path: nothing is written through the link', async () => {
    const seen = { known: undefined, versions: new Map<string, DiskVersion>() };
    const input = await planInput(seen);
    const plan = await planRestore(input);
    expect(plan.entries.map((entry) => `${entry.action} ${entry.path}`)).toEqual([
      'restore sub/a.txt',
      'restore top.txt',
    ]);
    // Same size as the version the plan saw, so only the folder's swap tells them apart.
    writeFileSync(path.join(outside, 'a.txt'), 'a v2\n');
    swapFolderForSymlink(path.join(dir, 'sub'), outside);
    const applied = await applyAsPlanned(input, plan, seen.versions);
    const results = Object.fromEntries(applied.outcomes.map((outcome) => [outcome.path, outcome.result]));
    expect(results).toEqual({ 'sub/a.txt': 'conflict', 'top.txt': 'done' });
    expect(readFileSync(path.join(outside, 'a.txt'), 'utf8')).toBe('a v2\n');
    expect(readFileSync(path.join(dir, 'sub.moved', 'a.txt'), 'utf8')).toBe('a v2\n');
  });
});
