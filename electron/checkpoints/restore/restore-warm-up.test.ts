import { readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCheckpointEngine } from '../test-support/engine-fixture';
import type { CheckpointEntry } from '../checkpoint-types';
import { runGit, writeFiles } from '../test-support/restore-fixtures';
import { warmUpRestore } from './restore-warm-up';

const fixture = useCheckpointEngine('vigil-restore-warm-up-');

/** Checkpoints `files` in the project and returns the checkpoint. */
async function checkpointOf(files: Record<string, string>): Promise<CheckpointEntry> {
  writeFiles(fixture.dir, files);
  const outcome = await fixture.engine.checkpoint(fixture.dir, { reason: 'test' });
  if (outcome.kind !== 'created') throw new Error('expected a checkpoint');
  return outcome.checkpoint;
}

/** Warms a restore of `paths` from `checkpoint` up, reading blobs with `readBlob` (the engine's by default). */
function warmUp(
  checkpoint: CheckpointEntry,
  paths: readonly string[],
  readBlob: (oid: string) => Promise<Uint8Array> = (oid) => fixture.engine.readBlob(oid),
): ReturnType<typeof warmUpRestore> {
  return warmUpRestore({ dir: fixture.dir, checkpointTree: checkpoint.tree, paths, reader: fixture.engine, readBlob });
}

describe('warmUpRestore', () => {
  it("lists the named files' folders for Vigil temp files and reads the checkpoint's versions ahead, writing nothing", async () => {
    const checkpoint = await checkpointOf({
      'a.txt': 'a\n',
      'src/app.ts': 'app\n',
      'src/util.ts': 'util\n',
      'docs/readme.md': 'docs\n',
    });
    const temp = path.join(fixture.dir, 'src', `.app.ts.vigil-tmp-999999-0-0123456789ab`);
    writeFileSync(temp, 'a temp file\n');
    writeFileSync(path.join(fixture.dir, 'src', '.not-a-temp'), 'x\n');
    const before = readdirSync(path.join(fixture.dir, 'src')).map(
      (name) => `${name}:${statSync(path.join(fixture.dir, 'src', name)).mtimeMs}`,
    );
    const read: string[] = [];
    const warmed = await warmUp(
      checkpoint,
      // A folder named (its files' folders are not listed here), a file that is gone from the checkpoint, one under a missing folder.
      ['src/app.ts', 'src/util.ts', 'a.txt', 'docs', 'new.txt', 'missing/x.txt'],
      async (oid) => {
        read.push(oid);
        return fixture.engine.readBlob(oid);
      },
    );
    expect(Object.fromEntries(warmed.temps)).toEqual({ [path.join(fixture.dir, 'src')]: [temp], [fixture.dir]: [] });
    const blobOf = (file: string): string =>
      runGit(['--git-dir', fixture.engine.gitdir, 'rev-parse', `${checkpoint.id}:${file}`]);
    expect(read.sort()).toEqual(['src/app.ts', 'src/util.ts', 'a.txt'].map(blobOf).sort());
    // What was read is kept for the writes, by the blob ids git's own CLI gives.
    expect(
      Object.fromEntries([...warmed.blobs].map(([oid, content]) => [oid, Buffer.from(content).toString()])),
    ).toEqual({ [blobOf('src/app.ts')]: 'app\n', [blobOf('src/util.ts')]: 'util\n', [blobOf('a.txt')]: 'a\n' });
    // Nothing was written or removed: the temp file is swept by the writes, after the snapshot.
    expect(
      readdirSync(path.join(fixture.dir, 'src')).map(
        (name) => `${name}:${statSync(path.join(fixture.dir, 'src', name)).mtimeMs}`,
      ),
    ).toEqual(before);
  });

  it('leaves a failed read to the write (it reads again and reports it)', async () => {
    const checkpoint = await checkpointOf({ 'a.txt': 'a\n' });
    const warmed = await warmUp(checkpoint, ['a.txt'], () => Promise.reject(new Error('unreadable')));
    expect([...warmed.temps.keys()]).toEqual([fixture.dir]);
    expect(warmed.blobs.size).toBe(0);
  });

  it("keeps a named file bigger than the store's cache of recent objects, so its write does not read it again", async () => {
    const big = 'x'.repeat(300 * 1024);
    const checkpoint = await checkpointOf({ 'big.txt': big });
    const warmed = await warmUp(checkpoint, ['big.txt']);
    const oid = runGit(['--git-dir', fixture.engine.gitdir, 'rev-parse', `${checkpoint.id}:big.txt`]);
    expect(Buffer.from(warmed.blobs.get(oid) ?? new Uint8Array()).toString()).toBe(big);
  });
});
