import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempFixture } from '../../test-support/temp-fixture';
import { applyState, removeEmptiedFolders } from './restore-apply-steps';
import type { ApplyInput } from './restore-apply-types';
import type { RestorePlan, RestorePlanEntry } from './restore-plan';

/*
 * After a restore deleted the files created since the checkpoint, it removes the folders that emptied.
 * An agent that swapped such a folder's parent for a symlink to a folder outside the workspace (after
 * the deletes, before the removal) must not get an empty folder of the same name removed out there.
 */

const fixture = useTempFixture('vigil-restore-emptied-swap-', (base) => {
  const workspace = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  mkdirSync(workspace);
  mkdirSync(path.join(outside, 'deep'), { recursive: true });
  return { workspace, outside };
});

/**
 * The folders `removeEmptiedFolders` removes after a restore deleted `file` (done). The checkpoint
 * held no tree there, so every folder on the deleted file's way is a candidate.
 */
async function removeAfterDeleting(workspace: string, file: string): Promise<string[]> {
  const deletion = { path: file, action: 'delete' } as RestorePlanEntry;
  const input = {
    plan: { dir: workspace } as RestorePlan,
    checkpointTree: undefined,
    reader: {},
    readBlob: () => Promise.reject(new Error('no blob is read here')),
  } as unknown as ApplyInput;
  const state = applyState(input, 1);
  state.outcomes.set(deletion.path, { path: deletion.path, action: 'delete', result: 'done' });
  return removeEmptiedFolders(input, state, [deletion]);
}

describe('removing the folders a restore emptied', () => {
  it('removes nothing through a folder swapped for a symlink to outside the workspace', async () => {
    const { workspace, outside } = fixture();
    // The state after the deletes and the swap: `sub` (which held deep/new.txt) is now a link to outside.
    symlinkSync(outside, path.join(workspace, 'sub'));
    const removed = await removeAfterDeleting(workspace, 'sub/deep/new.txt');
    expect(existsSync(path.join(outside, 'deep'))).toBe(true);
    expect(removed).toEqual([]);
  });

  it('still removes a folder the deletes emptied inside the workspace', async () => {
    const { workspace } = fixture();
    mkdirSync(path.join(workspace, 'sub', 'deep'), { recursive: true });
    expect(await removeAfterDeleting(workspace, 'sub/deep/new.txt')).toEqual(['sub/deep', 'sub']);
    expect(existsSync(path.join(workspace, 'sub'))).toBe(false);
  });
});
