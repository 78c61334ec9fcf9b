import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { runOutsideFileLocks } from '../locks/file-lock';
import { memoryLockPath, withMemoryLock } from './memory-lock';

let temp: { dir: string; remove: () => Promise<void> };
let file: string;

beforeEach(async () => {
  temp = await makeTempDir();
  file = path.join(temp.dir, 'MEMORY.md');
});
afterEach(async () => {
  await temp.remove();
});

/** Who holds the lock file right now (undefined: nobody). */
async function lockHolderPid(): Promise<number | undefined> {
  try {
    return (JSON.parse(await readFile(memoryLockPath(file), 'utf8')) as { pid: number }).pid;
  } catch {
    return undefined;
  }
}

describe('the memory lock across async work that outlives its task', () => {
  it('is really taken by work that was started inside a locked task and runs after its release', async () => {
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let later: Promise<number | undefined> | undefined;
    await withMemoryLock(file, async () => {
      // Started under the lock, awaited after it: the async context still says "held".
      later = released.then(() => withMemoryLock(file, lockHolderPid));
      await Promise.resolve();
    });
    await expect(lstat(memoryLockPath(file))).rejects.toThrow();
    release();
    expect(await later).toBe(process.pid);
    await expect(lstat(memoryLockPath(file))).rejects.toThrow();
  });

  it('makes work started outside the lock context wait for the task that started it', async () => {
    const order: string[] = [];
    let other: Promise<void> | undefined;
    await withMemoryLock(file, async () => {
      expect(await lockHolderPid()).toBe(process.pid);
      other = runOutsideFileLocks(() =>
        withMemoryLock(file, async () => {
          order.push('other');
          await Promise.resolve();
        }),
      );
      for (let round = 0; round < 5; round += 1) await yieldToLoop();
      order.push('task done');
    });
    await other;
    expect(order).toEqual(['task done', 'other']);
  });

  it('is re-entrant for the task itself', async () => {
    const pid = await withMemoryLock(file, () => withMemoryLock(file, lockHolderPid));
    expect(pid).toBe(process.pid);
    await expect(lstat(memoryLockPath(file))).rejects.toThrow();
  });
});
