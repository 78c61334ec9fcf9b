import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { ObjectStore, RefStore, dirHash } from '../../git-store';
import { Timeline } from '../timeline/timeline';
import type { CheckpointService } from '../checkpoint-service';
import { fsck, git, testService } from '../test-support/store-fixtures';
import { cutTimeline } from './retention';

/** A ref store that records when the cut's shallow list is staged and replaced, beside what it made durable. */
class TracedRefs extends RefStore {
  constructor(
    gitdir: string,
    private readonly steps: string[],
  ) {
    super(gitdir, (files) => steps.push(`durable ${files.map((file) => path.basename(file)).join(' ')}`));
  }

  override async stageShallow(cuts: ReadonlySet<string>): ReturnType<RefStore['stageShallow']> {
    this.steps.push('shallow staging');
    const staged = await super.stageShallow(cuts);
    this.steps.push('shallow staged');
    return {
      commit: async () => {
        this.steps.push('shallow replaced');
        await staged.commit();
      },
      discard: staged.discard,
    };
  }
}

describe("a retention cut's order of writes", () => {
  let base: string;
  let remove: () => Promise<void>;
  let service: CheckpointService;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-cut-order-'));
  });
  afterEach(async () => {
    await service.dispose();
    await remove();
  });

  it('stages the new shallow list while the dropped ref is made durable, and replaces the list only after', async () => {
    const dir = path.join(base, 'work');
    mkdirSync(dir);
    service = testService(path.join(base, 'home/checkpoints'), { retention: { maxSnapshots: 1000 } });
    const ids: string[] = [];
    for (let version = 0; version < 4; version += 1) {
      writeFileSync(path.join(dir, 'n.txt'), `version ${version}\n`);
      const outcome = await service.checkpoint(dir, { reason: `version ${version}` });
      if (outcome.kind !== 'created') throw new Error('expected a checkpoint');
      ids.push(outcome.checkpoint.id);
    }
    const steps: string[] = [];
    const refs = new TracedRefs(service.gitdir, steps);
    const timeline = new Timeline(new ObjectStore(service.gitdir));
    const dirhash = dirHash(dir);

    const dropped = await cutTimeline(refs, timeline, { dirhash, head: ids[3] }, 2, 'retention', {
      pinned: new Set(),
      assertHeld: () => Promise.resolve(),
    });

    expect(dropped).toBe(2);
    const durable = steps.findIndex((step) => step.startsWith(`durable `));
    expect(steps[durable]).toMatch(/^durable \d{13}-retention /);
    // Staged before the dropped ref was durable (the two waits overlap); replaced only once it is.
    expect(steps.indexOf('shallow staging')).toBeLessThan(durable);
    expect(steps.indexOf('shallow replaced')).toBeGreaterThan(durable);
    expect(readFileSync(path.join(service.gitdir, 'shallow'), 'utf8')).toBe(`${ids[2]}\n`);
    expect(git(['--git-dir', service.gitdir, 'for-each-ref', '--format=%(objectname)', 'refs/vigil-dropped'])).toBe(
      ids[1],
    );
    expect(await service.count(dir)).toBe(2);
    expect(fsck(service.gitdir)).toBe('');
  });
});
