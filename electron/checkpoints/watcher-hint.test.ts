import { mkdirSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { runVigil } from '../test-support/run-vigil';
import { startResidentCore, type ResidentCore } from '../cli/test-support/relay-fixture';
import type { CheckpointService } from './checkpoint-service';
import type { CheckpointOutcome } from './checkpoint-types';
import { git, gitWriteTree, testService } from './test-support/store-fixtures';

/** The tree a checkpoint outcome leaves the timeline at. */
function treeOf(service: CheckpointService, outcome: CheckpointOutcome): string {
  const id = outcome.kind === 'created' ? outcome.checkpoint.id : outcome.head;
  if (id === undefined) throw new Error('no checkpoint');
  return git(['--git-dir', service.gitdir, 'rev-parse', `${id}^{tree}`]);
}

describe('the watcher is a hint: a checkpoint answers for the folder as it is', () => {
  let base: string;
  let remove: () => Promise<void>;
  let shadows = 0;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-hint-'));
  });
  afterEach(async () => {
    await remove();
  });

  it(
    "takes a checkpoint for each change of issue 29's repro, relayed to a resident core",
    { timeout: 180_000 },
    async () => {
      const home = path.join(base, 'home');
      const proj = path.join(base, 'proj');
      const env = { VIGIL_HOME: home, HOME: path.join(base, 'user'), HERMES_HOME: path.join(base, 'no-hermes') };
      await mkdir(path.join(base, 'user'), { recursive: true });
      const resident: ResidentCore = await startResidentCore(home, env);
      try {
        const checkpoint = async (): Promise<string> => {
          const run = await runVigil(['checkpoint', proj], { env });
          expect(run.code, run.stderr).toBe(0);
          return run.stdout;
        };
        await mkdir(path.join(proj, 'gen'), { recursive: true });
        await writeFile(path.join(proj, 'a.txt'), 'a\n');
        expect(await checkpoint()).not.toMatch(/Nothing changed/);
        await writeFile(path.join(proj, 'gen/f1'), '1\n');
        expect(await checkpoint()).not.toMatch(/Nothing changed/);
        rmSync(path.join(proj, 'gen'), { recursive: true });
        mkdirSync(path.join(proj, 'gen'));
        writeFileSync(path.join(proj, 'gen/a'), 'a\n');
        expect(await checkpoint()).not.toMatch(/Nothing changed/);
        writeFileSync(path.join(proj, 'gen/b'), 'b\n');
        expect(await checkpoint()).not.toMatch(/Nothing changed/);
        writeFileSync(path.join(proj, 'gen/b'), 'overwritten\n');
        expect(await checkpoint()).not.toMatch(/Nothing changed/);
        expect(resident.calls.filter((call) => call === 'checkpoints:create')).toHaveLength(5);
        const listed = await runVigil(['checkpoints', 'list', proj, '--json'], { env });
        const entries = JSON.parse(listed.stdout) as { entries: { tree: string }[] };
        expect(entries.entries[0]?.tree).toBe(gitWriteTree(path.join(base, 'shadow'), proj));
        const status = await runVigil(['checkpoints', 'status', proj], { env });
        expect(status.stdout).toContain('  watched (each checkpoint waits for the watcher to catch up');
      } finally {
        await resident.stop();
      }
    },
  );

  describe('in a watching engine', () => {
    let dir: string;
    let service: CheckpointService;
    const reference = (): string => gitWriteTree(path.join(base, `shadow-${shadows++}`), dir);

    beforeEach(() => {
      dir = path.join(base, 'work');
      mkdirSync(path.join(dir, 'src'), { recursive: true });
      writeFileSync(path.join(dir, 'src/a.txt'), 'a\n');
      service = testService(path.join(base, 'home/checkpoints'), { watch: true, verifyEveryMs: 0 });
    });
    afterEach(async () => {
      await service.dispose();
    });

    const checkpointTree = async (): Promise<string> =>
      treeOf(service, await service.checkpoint(dir, { reason: 'manual checkpoint' }));

    it('keeps watching a folder made, removed and made again (mkdir e && rmdir e && mkdir e)', async () => {
      await checkpointTree();
      mkdirSync(path.join(dir, 'e'));
      rmdirSync(path.join(dir, 'e'));
      mkdirSync(path.join(dir, 'e'));
      writeFileSync(path.join(dir, 'e/one'), '1\n');
      expect(await checkpointTree()).toBe(reference());
      writeFileSync(path.join(dir, 'e/two'), '2\n');
      expect(await checkpointTree()).toBe(reference());
      rmSync(path.join(dir, 'e'), { recursive: true });
      mkdirSync(path.join(dir, 'e/deep'), { recursive: true });
      expect(await checkpointTree()).toBe(reference());
      writeFileSync(path.join(dir, 'e/deep/three'), '3\n');
      expect(await checkpointTree()).toBe(reference());
    });

    it('keeps watching folders moved into a re-created folder, and the folders they left', async () => {
      mkdirSync(path.join(dir, 'gen'));
      mkdirSync(path.join(dir, 'spare/inner'), { recursive: true });
      await checkpointTree();
      rmSync(path.join(dir, 'gen'), { recursive: true });
      mkdirSync(path.join(dir, 'gen'));
      renameSync(path.join(dir, 'spare'), path.join(dir, 'gen/spare'));
      expect(await checkpointTree()).toBe(reference());
      writeFileSync(path.join(dir, 'gen/spare/inner/x'), 'x\n');
      expect(await checkpointTree()).toBe(reference());
      mkdirSync(path.join(dir, 'spare'));
      writeFileSync(path.join(dir, 'spare/y'), 'y\n');
      expect(await checkpointTree()).toBe(reference());
      renameSync(path.join(dir, 'gen/spare'), path.join(dir, 'src/spare'));
      writeFileSync(path.join(dir, 'src/spare/inner/x'), 'moved twice\n');
      expect(await checkpointTree()).toBe(reference());
    });

    it('says in its status whether a folder is watched or walked, and why', async () => {
      const local = testService(path.join(base, 'home/checkpoints'));
      try {
        await local.checkpoint(dir, { reason: 'manual checkpoint' });
        const watchOf = async (engine: CheckpointService) => (await engine.status(dir)).directories[0]?.watch;
        const walked = await watchOf(local);
        expect(walked?.mode).toBe('walked');
        expect(walked?.reason).toMatch(/^no resident core/);
        const notYet = await watchOf(service);
        expect(notYet?.mode).toBe('walked');
        expect(notYet?.reason).toMatch(/^not checkpointed since this core started/);
        await checkpointTree();
        expect(await watchOf(service)).toEqual({ mode: 'watched', walkedPaths: [], defects: 0 });
        await service.verifyWatched(dir);
        const verified = await watchOf(service);
        expect(verified?.defects).toBe(0);
        expect(verified?.verifiedAt).toMatch(/^\d{4}-/);
      } finally {
        await local.dispose();
      }
    });
  });
});
