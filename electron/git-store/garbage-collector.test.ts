import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { CheckpointService } from '../checkpoints/checkpoint-service';
import { collectGarbage } from './garbage-collector';
import { ObjectStore } from './object-store';
import { RefStore } from './ref-store';
import { storeLayout } from './store-layout';
import { Timeline } from '../checkpoints/timeline/timeline';
import { writeFiles } from '../checkpoints/test-support/restore-fixtures';
import { fsck, git } from '../checkpoints/test-support/store-fixtures';

/** A collection compresses the trees a restore's pre-rollback snapshot stored uncompressed; git reads every pack. */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let checkpointsRoot: string;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-collect-'));
  dir = path.join(root, 'project');
  checkpointsRoot = path.join(root, 'home', 'checkpoints');
});
afterEach(async () => {
  await remove();
});

/** Twelve folders of twenty files with long, alike names (their trees compress well), each holding `label`. */
function writeProject(label: string): void {
  const files: Record<string, string> = {};
  for (let folder = 0; folder < 12; folder += 1)
    for (let file = 0; file < 20; file += 1)
      files[`d${folder}/a-rather-long-and-alike-file-name-${file}.txt`] = `${label} ${folder} ${file}\n`;
  writeFiles(dir, files);
}

/** `git verify-pack -v` of every pack (it fails on a bad checksum or object): object id to its size and its size in the pack. */
function packedSizes(gitdir: string): Map<string, { readonly size: number; readonly inPack: number }> {
  const packDir = path.join(gitdir, 'objects', 'pack');
  const sizes = new Map<string, { readonly size: number; readonly inPack: number }>();
  for (const name of readdirSync(packDir).filter((file) => file.endsWith('.idx'))) {
    for (const line of git(['verify-pack', '-v', path.join(packDir, name)]).split('\n')) {
      const [oid, , size, inPack] = line.split(/\s+/);
      if (oid !== undefined && /^[0-9a-f]{40}$/.test(oid))
        sizes.set(oid, { size: Number(size), inPack: Number(inPack) });
    }
  }
  return sizes;
}

describe('garbage collection', () => {
  it('compresses the trees a pre-rollback snapshot stored uncompressed, and git reads both packs', async () => {
    const engine = new CheckpointService({ root: checkpointsRoot, logger: silentLogger });
    let pre: string;
    try {
      writeProject('one');
      const first = await engine.checkpoint(dir, { reason: 'before write_file' });
      if (first.kind !== 'created') throw new Error('expected a checkpoint');
      writeProject('two');
      const outcome = await engine.checkpoint(dir, {
        reason: 'pre-rollback snapshot',
        kind: 'pre-rollback',
        restores: first.checkpoint.id,
      });
      if (outcome.kind !== 'created') throw new Error('expected a pre-rollback snapshot');
      pre = outcome.checkpoint.id;
    } finally {
      await engine.dispose();
    }
    const { gitdir } = storeLayout(checkpointsRoot);
    const leaf = git(['--git-dir', gitdir, 'rev-parse', `${pre}:d0`]);
    const stored = packedSizes(gitdir).get(leaf);
    // Stored blocks: the content plus zlib's framing and the entry header.
    expect(stored?.inPack).toBeGreaterThan(stored?.size ?? Infinity);
    expect(fsck(gitdir)).toBe('');

    const store = new ObjectStore(gitdir);
    try {
      const collected = await collectGarbage(store, new RefStore(gitdir), new Timeline(store), () => Promise.resolve());
      expect(collected.gaveWay).toBe(false);
    } finally {
      await store.close();
    }
    const compressed = packedSizes(gitdir).get(leaf);
    expect(compressed?.size).toBe(stored?.size);
    expect(compressed?.inPack).toBeLessThan((stored?.size ?? 0) / 2);
    expect(git(['--git-dir', gitdir, 'cat-file', '-p', `${pre}:d0/a-rather-long-and-alike-file-name-3.txt`])).toBe(
      'two 0 3',
    );
    expect(fsck(gitdir)).toBe('');
  });
});
