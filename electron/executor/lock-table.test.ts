import { describe, expect, it } from 'vitest';
import { LockTable } from './lock-table';

/** Resolves after every queued microtask and I/O callback has run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('LockTable', () => {
  it('serializes writers of one key in arrival order and lets readers share it', async () => {
    const table = new LockTable();
    const order: string[] = [];
    const hold = async (name: string, mode: 'read' | 'write', key = 'a'): Promise<() => void> => {
      const release = await table.acquire([{ key, mode }]);
      order.push(name);
      return release;
    };
    const writer1 = hold('w1', 'write');
    const reader1 = hold('r1', 'read');
    const reader2 = hold('r2', 'read');
    const writer2 = hold('w2', 'write');
    const other = hold('x', 'write', 'b');
    await settle();
    expect(order).toEqual(['w1', 'x']);
    (await writer1)();
    await settle();
    expect(order).toEqual(['w1', 'x', 'r1', 'r2']);
    (await reader1)();
    await settle();
    expect(order).toHaveLength(4);
    (await reader2)();
    await settle();
    expect(order.at(-1)).toBe('w2');
    (await writer2)();
    (await other)();
    expect(table.busyKeys).toBe(0);
  });

  it('never deadlocks callers that take several keys in opposite orders', async () => {
    const table = new LockTable();
    const keys = ['a', 'b', 'c', 'd'];
    let inside = 0;
    let maxInside = 0;
    const jobs = Array.from({ length: 200 }, async (_, index) => {
      const mine =
        index % 2 === 0 ? [keys[index % 4], keys[(index + 1) % 4]] : [keys[(index + 1) % 4], keys[index % 4]];
      const release = await table.acquire(mine.map((key) => ({ key: key ?? 'a', mode: 'write' as const })));
      inside += 1;
      maxInside = Math.max(maxInside, inside);
      await settle();
      inside -= 1;
      release();
    });
    await Promise.all(jobs);
    expect(maxInside).toBeLessThanOrEqual(2);
    expect(table.busyKeys).toBe(0);
  });

  it('treats a key asked twice in one request as one hold, the stronger mode winning', async () => {
    const table = new LockTable();
    const release = await table.acquire([
      { key: 'a', mode: 'read' },
      { key: 'a', mode: 'write' },
    ]);
    let isReaderIn = false;
    const reader = table.acquire([{ key: 'a', mode: 'read' }]).then((done) => {
      isReaderIn = true;
      return done;
    });
    await settle();
    expect(isReaderIn).toBe(false);
    release();
    (await reader)();
    expect(isReaderIn).toBe(true);
  });
});
