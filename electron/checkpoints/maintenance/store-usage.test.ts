import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { checkStoreUsage, measureStore, sampledLooseFolders } from './store-usage';

let objectsDir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  const made = await makeTempDir('vigil-store-usage-');
  objectsDir = path.join(made.dir, 'objects');
  remove = made.remove;
  mkdirSync(path.join(objectsDir, 'pack'), { recursive: true });
});
afterEach(async () => {
  await remove();
});

/** A loose object's file (empty: the counts go by name), `id` 40 hex digits. */
function writeLoose(id: string): void {
  mkdirSync(path.join(objectsDir, id.slice(0, 2)), { recursive: true });
  writeFileSync(path.join(objectsDir, id.slice(0, 2), id.slice(2)), '');
}

/** `count` loose objects with random ids (spread over the folders as SHA-1 ids are). */
function writeRandomLoose(count: number): void {
  for (let index = 0; index < count; index += 1) writeLoose(randomBytes(20).toString('hex'));
}

/** A pack and its index of `bytes` bytes each. */
function writePack(bytes: number): void {
  const name = `pack-${randomBytes(20).toString('hex')}`;
  for (const ext of ['pack', 'idx'])
    writeFileSync(path.join(objectsDir, 'pack', `${name}.${ext}`), Buffer.alloc(bytes));
}

const limits = { maxLooseObjects: 1_500, maxTotalBytes: 64 * 1024 * 1024 };

describe('a sampled look at the store', () => {
  it('lists only the sampled folders and scales their count up; packs are counted whole', async () => {
    expect(sampledLooseFolders).toHaveLength(32);
    writeLoose(`00${'1'.repeat(38)}`);
    writeLoose(`00${'2'.repeat(38)}`);
    writeLoose(`f8${'3'.repeat(38)}`);
    for (let index = 0; index < 10; index += 1) writeLoose(`01${String(index).padStart(38, '0')}`);
    writePack(1000);
    const sampled = await measureStore(objectsDir, { sampleLoose: true });
    expect(sampled.looseObjects).toBe(3 * 8);
    expect(sampled.packs).toBe(1);
    expect(sampled.bytes).toBeGreaterThanOrEqual(3 * 8 * 4096 + 2000);
    expect((await measureStore(objectsDir, { estimateLoose: true })).looseObjects).toBe(13);
  });

  it('decides as a whole count would (differential, random stores): a store past a limit is always counted whole', async () => {
    for (const count of [0, 40, 900, 1_499, 1_501, 2_600]) {
      rmSync(objectsDir, { recursive: true, force: true });
      mkdirSync(path.join(objectsDir, 'pack'), { recursive: true });
      writeRandomLoose(count);
      const usage = await checkStoreUsage(objectsDir, limits);
      const whole = await measureStore(objectsDir, { estimateLoose: true });
      expect(whole.looseObjects).toBe(count);
      // The decision the maintenance check makes from it is the whole count's.
      expect(usage.looseObjects > limits.maxLooseObjects).toBe(count > limits.maxLooseObjects);
      // Near the limit, the whole count itself.
      if (count >= limits.maxLooseObjects) expect(usage.looseObjects).toBe(count);
    }
  }, 60_000);

  it('counts the store whole when its packs are near the size cap, so a store over it is seen over it', async () => {
    const small = { maxLooseObjects: 1_500, maxTotalBytes: 8 * 1024 * 1024 };
    writeRandomLoose(200);
    writePack(small.maxTotalBytes / 2 - 200 * 1024);
    const usage = await checkStoreUsage(objectsDir, small);
    expect(usage).toEqual(await measureStore(objectsDir, { estimateLoose: true }));
    expect(usage.bytes > small.maxTotalBytes).toBe(true);
  });

  it('far from every limit, answers from the sample', async () => {
    writeRandomLoose(100);
    writeLoose(`${sampledLooseFolders[1] ?? ''}${'a'.repeat(38)}`);
    const usage = await checkStoreUsage(objectsDir, limits);
    expect(usage).toEqual(await measureStore(objectsDir, { sampleLoose: true }));
    expect(usage.looseObjects % 8).toBe(0);
  });
});
