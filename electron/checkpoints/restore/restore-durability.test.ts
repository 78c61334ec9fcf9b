import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { restoreServiceFor } from './restore-service';
import { dirHash, timelineRef } from '../../git-store/store-layout';
import { writeFiles } from '../test-support/restore-fixtures';

/** The pre-rollback snapshot is on disk for good (objects, folders, ref fsynced) before a restore touches any user file. */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let checkpointsRoot: string;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-restore-durability-'));
  dir = path.join(root, 'project');
  checkpointsRoot = path.join(root, 'home', 'checkpoints');
});
afterEach(async () => {
  await remove();
});

/** The ids of the objects in the packs of a store (git's own reading of them). */
function packedObjects(gitdir: string): Set<string> {
  const packDir = path.join(gitdir, 'objects', 'pack');
  const indexes = readdirSync(packDir).filter((name) => name.endsWith('.idx'));
  const lines = indexes.flatMap((name) =>
    execFileSync('git', ['verify-pack', '-v', path.join(packDir, name)], { encoding: 'utf8' }).split('\n'),
  );
  return new Set(lines.flatMap((line) => (/^[0-9a-f]{40} /.test(line) ? [line.slice(0, 40)] : [])));
}

/** Every loose object file of a store. */
function looseObjects(gitdir: string): string[] {
  const objects = path.join(gitdir, 'objects');
  return readdirSync(objects)
    .filter((fan) => /^[0-9a-f]{2}$/.test(fan))
    .flatMap((fan) =>
      readdirSync(path.join(objects, fan))
        .filter((name) => /^[0-9a-f]{38}$/.test(name))
        .map((name) => path.join(objects, fan, name)),
    );
}

type Step =
  | { readonly kind: 'synced'; readonly files: readonly string[] }
  | { readonly kind: 'progress'; readonly phase: string };

describe.each([
  { hashing: 'on the main thread', workerThreshold: 1_000 },
  { hashing: 'in a worker thread', workerThreshold: 1 },
])('a restore, hashing $hashing', ({ workerThreshold }) => {
  it('fsyncs every object of the pre-rollback snapshot, their folders and its ref before it writes or deletes a file; an ordinary checkpoint is durable before it returns', async () => {
    const steps: Step[] = [];
    const engine = new CheckpointService({
      root: checkpointsRoot,
      logger: silentLogger,
      workers: 1,
      workerThreshold,
      onSynced: (files) => steps.push({ kind: 'synced', files }),
    });
    try {
      const restore = restoreServiceFor(engine, checkpointsRoot, silentLogger);
      const names = Array.from({ length: 40 }, (_, index) => `d${index % 4}/f${index}.txt`);
      writeFiles(dir, Object.fromEntries(names.map((name) => [name, `checkpoint ${name}\n`])));
      const taken = await engine.checkpoint(dir, { reason: 'before write_file' });
      if (taken.kind !== 'created') throw new Error('no checkpoint');
      // The user's work since: every file edited, and new files in a new folder.
      writeFiles(dir, {
        ...Object.fromEntries(names.map((name) => [name, `work ${name}\n`])),
        'new/n.txt': 'new work\n',
      });
      // An ordinary checkpoint is durable too before it returns: its commit object, the ref and the ref's folder.
      const ordinary = steps.flatMap((step) => (step.kind === 'synced' ? step.files : []));
      const id = taken.checkpoint.id;
      expect(ordinary).toContain(path.join(engine.gitdir, 'objects', id.slice(0, 2), id.slice(2)));
      expect(ordinary).toContain(path.join(engine.gitdir, timelineRef(dirHash(dir))));
      expect(ordinary).toContain(path.dirname(path.join(engine.gitdir, timelineRef(dirHash(dir)))));
      steps.length = 0;

      const before = new Set(looseObjects(engine.gitdir));
      let packedAtFirstWrite: Set<string> | undefined;
      const result = await restore.restore(dir, taken.checkpoint.id, [], {
        onProgress: (step) => {
          // Packs are fsynced as they are written (pack, index, folder): whatever is packed when the first file is written is on disk.
          if (step.phase === 'write') packedAtFirstWrite ??= packedObjects(engine.gitdir);
          steps.push({ kind: 'progress', phase: step.phase });
        },
      });
      expect(result.counts.done).toBe(names.length + 1);

      const written = looseObjects(engine.gitdir).filter((file) => !before.has(file));
      const firstWrite = steps.findIndex((step) => step.kind === 'progress' && step.phase === 'write');
      const durable = new Set(steps.slice(0, firstWrite).flatMap((step) => (step.kind === 'synced' ? step.files : [])));
      for (const file of written) {
        expect(durable, `${file} was not fsynced before the first write`).toContain(file);
        expect(durable).toContain(path.dirname(file));
      }
      // Every object the pre-rollback snapshot added (its commit, trees and the 41 edited files' blobs) was durable before the first write, loose or packed.
      const added = execFileSync(
        'git',
        ['--git-dir', engine.gitdir, 'rev-list', '--objects', result.preRollback.id, `^${taken.checkpoint.id}`],
        { encoding: 'utf8' },
      )
        .split('\n')
        .flatMap((line) => (line === '' ? [] : [line.slice(0, 40)]));
      expect(added.length).toBeGreaterThan(names.length);
      const looseDurable = new Set(
        [...durable].map((file) => `${path.basename(path.dirname(file))}${path.basename(file)}`),
      );
      for (const oid of added)
        expect(
          looseDurable.has(oid) || packedAtFirstWrite?.has(oid),
          `${oid} was neither fsynced nor packed before the first write`,
        ).toBe(true);
      const ref = path.join(engine.gitdir, timelineRef(dirHash(dir)));
      expect(durable).toContain(ref);
      expect(durable).toContain(path.dirname(ref));
      // Nothing is fsynced after the writes began.
      expect(steps.slice(firstWrite).filter((step) => step.kind === 'synced')).toEqual([]);
    } finally {
      await engine.dispose();
    }
  });
});
