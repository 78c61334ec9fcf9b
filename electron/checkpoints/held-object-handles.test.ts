import { readdirSync, renameSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import type { CheckpointService } from './checkpoint-service';
import { testService } from './test-support/store-fixtures';
import { openInside } from '../test-support/open-descriptors';

/** Every loose object file under `objects`. */
function looseFiles(objects: string): string[] {
  return readdirSync(objects)
    .filter((fan) => /^[0-9a-f]{2}$/.test(fan))
    .flatMap((fan) => readdirSync(path.join(objects, fan)).map((name) => path.join(objects, fan, name)));
}

/**
 * The handles a store keeps open to fsync the loose objects it wrote are good only within the store lock hold
 * that wrote them: between two holds another process may delete an unreferenced object and write it again
 * (a new file at the name), and an fsync through the old handle would make the deleted file durable instead.
 */
describe.runIf(process.platform === 'linux')('loose-object handles and the store lock', () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let service: CheckpointService | undefined;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-held-handles-'));
    dir = path.join(base, 'work');
    mkdirSync(dir);
  });
  afterEach(async () => {
    await service?.dispose();
    await remove();
  });

  it('closes them when the hold that wrote them (a warm-up) ends; the next checkpoint fsyncs the object at its name', async () => {
    const root = path.join(base, 'home/checkpoints');
    const objects = path.join(root, 'store/objects');
    const synced: string[] = [];
    service = testService(root, { watch: true, onSynced: (files) => void synced.push(...files) });
    writeFileSync(path.join(dir, 'a.txt'), 'same content\n');
    await service.warmUp(dir);
    const written = looseFiles(objects);
    expect(written.length).toBeGreaterThan(0);
    // Before the fix the warm-up's handles stayed open after its hold, one per object written.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(openInside(objects)).toEqual([]);
    // Between holds, another writer replaces an object (same content, a new file at the name).
    const replaced = written[0] ?? '';
    const data = readFileSync(replaced);
    const inode = statSync(replaced).ino;
    // The new file is made while the old one still exists, so it cannot get the old one's inode back.
    writeFileSync(`${replaced}.other`, data, { mode: 0o444 });
    renameSync(`${replaced}.other`, replaced);
    expect(statSync(replaced).ino).not.toBe(inode);
    synced.length = 0;
    const outcome = await service.checkpoint(dir, { reason: 'first' });
    expect(outcome.kind).toBe('created');
    expect(synced).toContain(replaced);
  });
});
