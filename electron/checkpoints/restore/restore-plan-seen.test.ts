import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { createPathScope, overlayReader, readLiveTree, type DiskVersion } from '../compare';
import { applyRestorePlan } from './restore-apply';
import { planRestore } from './restore-plan';
import { createWriteLedger } from './restore-write-ledger';
import { entryOf, gitCommit, initBareStore, isoTreeReader, writeFiles } from '../test-support/restore-fixtures';

/**
 * A restore that applies its plan looks at each file once before writing it: the writes insist on
 * the version the plan found (`PlanInput.seen`). A file changed after the plan looked at it must
 * still be left as it is (`conflict`), and a file the plan found missing is not written over once it appears.
 */

let root: string;
let remove: () => Promise<void>;
let store: string;
let dir: string;
const rules = { maxFileBytes: 1024 * 1024, ignoredFolders: [] };
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-plan-seen-'));
  store = path.join(root, 'store');
  dir = path.join(root, 'work');
  initBareStore(store);
});
afterEach(async () => {
  await remove();
});

const saved = { 'a.txt': 'a v1\n', 'sub/b.txt': 'b v1\n', 'c.txt': 'c v1\n', 'gone.txt': 'gone v1\n' };

describe('a restore whose writes use the versions its plan found', () => {
  it('restores what the plan saw, and refuses a file changed or created after the plan looked at it', async () => {
    writeFiles(dir, saved);
    const checkpoint = entryOf(store, dir, gitCommit(store, dir, 'checkpoint', Object.keys(saved)));
    writeFiles(dir, { 'a.txt': 'a v2\n', 'sub/b.txt': 'b v2\n', 'c.txt': 'c v2\n', 'new.txt': 'created\n' });
    rmSync(path.join(dir, 'gone.txt'));
    const scope = createPathScope([]);
    const live = await readLiveTree(dir, rules, scope);
    const reader = overlayReader(live, isoTreeReader(store));
    const seen = { known: undefined, versions: new Map<string, DiskVersion>() };
    const plan = await planRestore({
      dir,
      checkpoint,
      scope,
      current: { tree: live.root, reader },
      maxFileBytes: rules.maxFileBytes,
      ledger: createWriteLedger(path.join(root, 'written.jsonl')),
      seen,
    });
    expect(plan.entries.map((entry) => `${entry.action} ${entry.path}`)).toEqual([
      'restore a.txt',
      'restore c.txt',
      'recreate gone.txt',
      'delete new.txt',
      'restore sub/b.txt',
    ]);
    // The plan kept what it found at each path it restores or deletes (not at the one it re-creates).
    expect([...seen.versions.keys()].sort()).toEqual(['a.txt', 'c.txt', 'new.txt', 'sub/b.txt']);
    // After the plan looked: one file is changed again (other size), the deleted file is written back (other size), the missing one appears.
    writeFileSync(path.join(dir, 'sub/b.txt'), 'b changed after the plan\n');
    writeFileSync(path.join(dir, 'new.txt'), 'created again, longer\n');
    writeFileSync(path.join(dir, 'gone.txt'), 'appeared after the plan\n');

    const applied = await applyRestorePlan({
      plan,
      checkpointTree: checkpoint.tree,
      reader,
      readBlob: (oid) => isoTreeReader(store).readBlob(oid),
      seen: seen.versions,
    });

    const results = Object.fromEntries(applied.outcomes.map((outcome) => [outcome.path, outcome.result]));
    expect(results).toEqual({
      'a.txt': 'done',
      'c.txt': 'done',
      'gone.txt': 'conflict',
      'new.txt': 'conflict',
      'sub/b.txt': 'conflict',
    });
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('a v1\n');
    expect(readFileSync(path.join(dir, 'c.txt'), 'utf8')).toBe('c v1\n');
    expect(readFileSync(path.join(dir, 'sub/b.txt'), 'utf8')).toBe('b changed after the plan\n');
    expect(readFileSync(path.join(dir, 'new.txt'), 'utf8')).toBe('created again, longer\n');
    expect(readFileSync(path.join(dir, 'gone.txt'), 'utf8')).toBe('appeared after the plan\n');
  });
});
