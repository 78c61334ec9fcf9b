import { lstatSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import type { CheckpointEntry } from '../checkpoint-types';
import { createPathScope, openDiffSides, overlayReader, readLiveTree } from '../compare';
import { applyRestorePlan } from './restore-apply';
import { findUnaccountedChanges } from './restore-scope-check';
import { planRestore, type RestorePlan } from './restore-plan';
import { createWriteLedger } from './restore-write-ledger';
import { entryOf, gitCommit, initBareStore, isoTreeReader, writeFiles } from '../test-support/restore-fixtures';

/**
 * A checkpoint that holds files Vigil's own rules leave out (as Hermes's stores do: media, build
 * output), made with git's CLI: diff and restore judge them by what is on disk, never through a link.
 */

let root: string;
let remove: () => Promise<void>;
let store: string;
let dir: string;
const rules = { maxFileBytes: 1024 * 1024, ignoredFolders: [] };
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-held-files-'));
  store = path.join(root, 'store');
  dir = path.join(root, 'work');
  initBareStore(store);
});
afterEach(async () => {
  await remove();
});

const held = { 'app.py': 'print(1)\n', 'logo.png': 'PNG bytes v1', 'out/app.js': 'built v1\n' };

function checkpointOfEverything(): CheckpointEntry {
  writeFiles(dir, held);
  return entryOf(store, dir, gitCommit(store, dir, 'hermes checkpoint', Object.keys(held)));
}

async function plan(checkpoint: CheckpointEntry, paths: readonly string[] = []): Promise<RestorePlan> {
  const scope = createPathScope(paths);
  const live = await readLiveTree(dir, rules, scope);
  return planRestore({
    dir,
    checkpoint,
    scope,
    current: { tree: live.root, reader: overlayReader(live, isoTreeReader(store)) },
    maxFileBytes: rules.maxFileBytes,
    ledger: createWriteLedger(path.join(root, 'written.jsonl')),
  });
}

function lines(result: RestorePlan): string[] {
  return result.entries.map(
    (entry) => `${entry.action}${entry.reason === undefined ? '' : `:${entry.reason}`} ${entry.path}`,
  );
}

async function diffStatuses(checkpoint: CheckpointEntry): Promise<string[]> {
  const reader = isoTreeReader(store);
  const engine = {
    resolve: () => Promise.resolve(checkpoint),
    readTree: (oid: string) => reader.readTree(oid),
    readBlob: (oid: string) => reader.readBlob(oid),
  };
  const sides = await openDiffSides(engine, rules, dir, checkpoint.id, { kind: 'live' }, createPathScope([]));
  return sides.changes.map(
    (change) =>
      `${change.old === undefined ? 'added' : change.new === undefined ? 'deleted' : 'modified'} ${change.path}`,
  );
}

describe('files a checkpoint holds that Vigil excludes', () => {
  it('are no change when unchanged, a modification when changed, and a deletion only when missing', async () => {
    const checkpoint = checkpointOfEverything();
    expect(await diffStatuses(checkpoint)).toEqual([]);
    expect(lines(await plan(checkpoint))).toEqual([]);
    writeFileSync(path.join(dir, 'logo.png'), 'PNG bytes v2');
    rmSync(path.join(dir, 'out', 'app.js'));
    expect(await diffStatuses(checkpoint)).toEqual(['modified logo.png', 'deleted out/app.js']);
    // Planned without a restore point that holds it (the service's holds it: restore-holds-everything.test.ts).
    expect(lines(await plan(checkpoint))).toEqual(['skip:unprotected logo.png', 'recreate out/app.js']);
    expect((await plan(checkpoint, ['logo.png'])).entries[0]?.note).toContain('could not be undone');
  });

  it('re-creates one that is missing, and leaves one with other content alone', async () => {
    const checkpoint = checkpointOfEverything();
    rmSync(path.join(dir, 'logo.png'));
    writeFileSync(path.join(dir, 'out', 'app.js'), 'built v2\n');
    const planned = await plan(checkpoint);
    const reader = isoTreeReader(store);
    const applied = await applyRestorePlan({
      plan: planned,
      checkpointTree: checkpoint.tree,
      reader,
      readBlob: (oid) => reader.readBlob(oid),
    });
    expect(applied.outcomes.map((outcome) => `${outcome.result} ${outcome.path}`)).toEqual([
      'done logo.png',
      'skipped out/app.js',
    ]);
    expect(readFileSync(path.join(dir, 'logo.png'), 'utf8')).toBe('PNG bytes v1');
    expect(readFileSync(path.join(dir, 'out', 'app.js'), 'utf8')).toBe('built v2\n');
  });

  it('are no change left over after a restore (the check of the scope), named or not, while they match', async () => {
    const checkpoint = checkpointOfEverything();
    const reader = isoTreeReader(store);
    for (const paths of [['app.py', 'logo.png'], []]) {
      writeFileSync(path.join(dir, 'app.py'), 'print(2)\n');
      const planned = await plan(checkpoint, paths);
      const applied = await applyRestorePlan({
        plan: planned,
        checkpointTree: checkpoint.tree,
        reader,
        readBlob: (oid) => reader.readBlob(oid),
      });
      expect(applied.outcomes.map((outcome) => `${outcome.result} ${outcome.path}`)).toContain('done app.py');
      const check = { dir, checkpointTree: checkpoint.tree, scope: createPathScope(paths), rules, store: reader };
      const left = { ...check, known: applied.readBack, readBack: applied.readBack, outcomes: applied.outcomes };
      expect(await findUnaccountedChanges(left), paths.join(',')).toEqual([]);
      writeFileSync(path.join(dir, 'logo.png'), 'PNG bytes v2');
      const changed = (await findUnaccountedChanges(left)).map((outcome) => `${outcome.action} ${outcome.path}`);
      expect(changed, paths.join(',')).toEqual(['restore logo.png']);
      writeFileSync(path.join(dir, 'logo.png'), held['logo.png']);
    }
  });

  it('are never judged through a symlink: a held folder swapped for a link to an identical copy outside is restored as a folder', async () => {
    const checkpoint = checkpointOfEverything();
    const outside = path.join(root, 'outside');
    writeFiles(outside, { 'app.js': 'built v1\n' });
    rmSync(path.join(dir, 'out'), { recursive: true });
    symlinkSync(outside, path.join(dir, 'out'));
    expect(await diffStatuses(checkpoint)).toEqual(['added out', 'deleted out/app.js']);
    const planned = await plan(checkpoint);
    expect(lines(planned)).toEqual(['delete out', 'recreate out/app.js']);
    const reader = isoTreeReader(store);
    await applyRestorePlan({
      plan: planned,
      checkpointTree: checkpoint.tree,
      reader,
      readBlob: (oid) => reader.readBlob(oid),
    });
    expect(lstatSync(path.join(dir, 'out')).isDirectory()).toBe(true);
    expect(readFileSync(path.join(dir, 'out', 'app.js'), 'utf8')).toBe('built v1\n');
    expect(readdirSync(outside)).toEqual(['app.js']);
  });
});
