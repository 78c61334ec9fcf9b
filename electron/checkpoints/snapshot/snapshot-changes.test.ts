import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { ObjectStore } from '../../git-store/object-store';
import { RefStore } from '../../git-store/ref-store';
import { git, testService } from '../test-support/store-fixtures';
import { Timeline } from '../timeline/timeline';
import { warmTimeline } from './snapshot-changes';

describe("a walk's timeline warm-up (the commits read while the workers walk)", () => {
  let base: string;
  let remove: () => Promise<void>;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-warm-'));
  });
  afterEach(async () => {
    await remove();
  });

  it('keeps the newest commits in memory: the timeline is walked again without the store', async () => {
    const dir = path.join(base, 'work');
    mkdirSync(dir);
    const service = testService(path.join(base, 'home', 'checkpoints'));
    let head: string | undefined;
    try {
      for (let index = 0; index < 4; index += 1) {
        writeFileSync(path.join(dir, `f${index}.txt`), `${index}\n`);
        const outcome = await service.checkpoint(dir, { reason: `c${index}` });
        if (outcome.kind !== 'created') throw new Error(`expected a checkpoint, got ${outcome.kind}`);
        head = outcome.checkpoint.id;
      }
    } finally {
      await service.dispose();
    }
    const { gitdir } = service;
    const timeline = new Timeline(new ObjectStore(gitdir));
    await warmTimeline({ refs: new RefStore(gitdir), timeline }, head);
    // The commits' objects gone from the store: only memory can answer now.
    for (const id of git(['--git-dir', gitdir, 'rev-list', head ?? '']).split('\n'))
      rmSync(path.join(gitdir, 'objects', id.slice(0, 2), id.slice(2)));
    const walked = await timeline.walk(head, new Set());
    expect(walked.map((item) => item.commit.subject)).toEqual(['c3', 'c2', 'c1', 'c0']);
    await expect(new Timeline(new ObjectStore(gitdir)).walk(head, new Set())).rejects.toThrow();
  });
});
