import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import type { CheckpointService } from './checkpoint-service';
import { testService, writeTree } from './test-support/store-fixtures';

/** A folder resolved once (a restore's, an event's) is looked up as it is; a bare list reads only the timeline. */
describe('timeline lookups of a folder already resolved', () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let link: string;
  let service: CheckpointService;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-lookup-'));
    dir = path.join(base, 'work');
    mkdirSync(dir);
    writeTree(dir, { 'keep.txt': 'unchanging\n' });
    link = path.join(base, 'link');
    symlinkSync(dir, link);
    service = testService(path.join(base, 'home/checkpoints'));
  });
  afterEach(async () => {
    await service.dispose();
    await remove();
  });

  async function checkpoint(text: string): Promise<string> {
    writeFileSync(path.join(dir, 'n.txt'), text);
    const outcome = await service.checkpoint(dir, { reason: text });
    if (outcome.kind !== 'created') throw new Error('expected a checkpoint');
    return outcome.checkpoint.id;
  }

  it('takes a resolved folder as it is (a path through a link is then another folder), and resolves one that is not', async () => {
    const older = await checkpoint('one');
    const newer = await checkpoint('two');
    // As the user names it: the link is resolved to the folder's one timeline.
    expect((await service.list(link)).map((entry) => entry.id)).toEqual([newer, older]);
    expect(await service.count(link)).toBe(2);
    expect((await service.resolve(link, '2')).id).toBe(older);
    // Marked resolved: the same path is not resolved again, so the link names no timeline.
    await expect(service.list(link, { isResolved: true })).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.count(link, { isResolved: true })).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.resolve(link, '1', { isResolved: true })).rejects.toMatchObject({ code: 'not_found' });
    // The resolved folder itself is found as before.
    expect((await service.list(dir, { isResolved: true })).map((entry) => entry.id)).toEqual([newer, older]);
    expect(await service.count(dir, { isResolved: true })).toBe(2);
    expect((await service.resolve(dir, '1', { isResolved: true })).id).toBe(newer);
  });

  it('lists ids, times and kinds without the pin and name marks when asked for a bare list', async () => {
    const older = await checkpoint('one');
    const newer = await checkpoint('two');
    await service.pin(dir, older, true);
    await service.rename(dir, newer, 'before the refactor');
    const full = await service.list(dir);
    expect(full.map((entry) => [entry.id, entry.isPinned, entry.name])).toEqual([
      [newer, undefined, 'before the refactor'],
      [older, true, undefined],
    ]);
    const bare = await service.list(dir, { isBare: true });
    expect(bare.map((entry) => [entry.id, entry.isPinned, entry.name, entry.kind, entry.time])).toEqual(
      full.map((entry) => [entry.id, undefined, undefined, entry.kind, entry.time]),
    );
  });
});
