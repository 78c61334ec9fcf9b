import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { dirHash } from '../../git-store';
import type { CheckpointService } from '../checkpoint-service';
import { testService } from '../test-support/store-fixtures';

/**
 * A checkpoint's ref folder is fsynced beside the rest of its hold of the store lock (issue 31), but the lock
 * is let go only once that fsync finished: the next holder must never read the moved head, and answer with it,
 * while a power cut could still take it back.
 */
describe('the head a checkpoint answers with', () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let service: CheckpointService | undefined;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-answer-durable-'));
    dir = path.join(base, 'work');
    mkdirSync(dir);
  });
  afterEach(async () => {
    await service?.dispose();
    await remove();
  });

  it('is durable before another call under the lock answers "unchanged" with it', async () => {
    const events: string[] = [];
    const root = path.join(base, 'home/checkpoints');
    const refFile = path.join(root, 'store/refs/vigil', dirHash(dir));
    service = testService(root, {
      // A slow disk: the ref folder's fsync (real) is reported 300 ms late, and the fsync's promise waits for it.
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- RefStore chains the hook (`.then`), so its promise delays the fsync's
      onSynced: (files) => {
        if (!files.includes(refFile)) return;
        return new Promise<void>((resolve) => setTimeout(resolve, 300)).then(() => void events.push('ref durable'));
      },
    });
    writeFileSync(path.join(dir, 'n.txt'), 'version 0\n');
    await service.checkpoint(dir, { reason: 'version 0' });
    events.length = 0;
    writeFileSync(path.join(dir, 'n.txt'), 'version 1\n');
    const said = (who: string) => (outcome: Awaited<ReturnType<CheckpointService['checkpoint']>>) =>
      void events.push(`${who} ${outcome.kind}`);
    const first = service.checkpoint(dir, { reason: 'version 1' }).then(said('first'));
    const second = service.checkpoint(dir, { reason: 'again' }).then(said('second'));
    await Promise.all([first, second]);
    // Before the fix: ["second unchanged", "ref durable", "first created"]. Which call takes the lock first is
    // the lock's business (either may win the race to it); the other answers "unchanged" only after the fsync.
    expect(events.slice(0, 1)).toEqual(['ref durable']);
    const answers = events.slice(1).map((event) => event.split(' ')[1]);
    expect(answers.sort()).toEqual(['created', 'unchanged']);
    expect(
      events
        .slice(1)
        .map((event) => event.split(' ')[0])
        .sort(),
    ).toEqual(['first', 'second']);
  });
});
