import { describe, expect, it } from 'vitest';
import { DeferredSyncs } from './deferred-syncs';

/** A promise and the functions that settle it. */
function settleable(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve = (): void => undefined;
  let reject = (_error: Error): void => undefined;
  const promise = new Promise<void>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/**
 * A checkpoint answers only once the fsync it deferred (its ref folder's) has finished: the work under
 * the lock may end first, the answer may not (issue 31: the fsync runs beside the rest of the hold).
 */
describe('DeferredSyncs', () => {
  it('gives the work its value only after every fsync added during it has finished', async () => {
    const syncs = new DeferredSyncs();
    const folder = settleable();
    let isAnswered = false;
    const answer = syncs
      .around(
        Promise.resolve().then(() => {
          syncs.add(folder.promise);
          return 'created';
        }),
      )
      .then((value) => {
        isAnswered = true;
        return value;
      });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(isAnswered).toBe(false);
    folder.resolve();
    await expect(answer).resolves.toBe('created');
  });

  it('fails the work that succeeded when a deferred fsync failed', async () => {
    const syncs = new DeferredSyncs();
    const folder = settleable();
    const answer = syncs.around(
      Promise.resolve().then(() => {
        syncs.add(folder.promise);
        return 'created';
      }),
    );
    folder.reject(new Error('EIO: the disk refused the fsync'));
    await expect(answer).rejects.toThrow('EIO: the disk refused the fsync');
  });

  it("keeps the work's own error when both fail, waits for the fsync, and leaves no unhandled rejection", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      const syncs = new DeferredSyncs();
      const folder = settleable();
      let isSettled = false;
      const answer = syncs
        .around(
          Promise.resolve().then(() => {
            syncs.add(folder.promise);
            throw new Error('the cut failed');
          }),
        )
        .finally(() => {
          isSettled = true;
        });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(isSettled).toBe(false);
      folder.reject(new Error('EIO'));
      await expect(answer).rejects.toThrow('the cut failed');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
