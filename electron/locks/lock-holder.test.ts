import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ownStartTime } from '../process/process-start-time';
import { newLockHolder, staleReason } from './lock-holder';

const limits = { staleMs: 20_000, garbageMs: 1_000 };

describe('staleReason for a live holder on this host', () => {
  it('where start times cannot be read, counts a holder silent for longer than staleMs as abandoned (its pid may have been reused)', async () => {
    // This test process is alive; without start times it cannot be told from a process that reused a dead holder's pid.
    const holder = newLockHolder('a test');
    const noStartTimes = (): Promise<undefined> => Promise.resolve(undefined);
    expect(await staleReason(holder, 30_000, limits, noStartTimes)).toContain('not refreshed for 30 s');
    expect(await staleReason(holder, 5_000, limits, noStartTimes)).toBeUndefined();
  });

  it.runIf(process.platform === 'linux')(
    'where start times can be read, keeps a live holder with its own start time however long it was silent',
    async () => {
      const holder = newLockHolder('a test', await ownStartTime());
      expect(holder.hostname).toBe(os.hostname());
      expect(await staleReason(holder, 600_000, limits)).toBeUndefined();
    },
  );
});
