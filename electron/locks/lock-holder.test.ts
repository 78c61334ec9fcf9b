import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ownStartTime } from '../lib/process/process-start-time';
import { isHolderStopped, newLockHolder, staleReason } from './lock-holder';

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

describe('isHolderStopped', () => {
  it('is true only for a holder on this host whose process, with its own start time, is stopped', async () => {
    const holder = newLockHolder('a test', 'boot:1');
    const stopped = (startedAt: string) => () => Promise.resolve({ startedAt, hasExited: false, isStopped: true });
    const running = () => Promise.resolve({ startedAt: 'boot:1', hasExited: false, isStopped: false });
    expect(await isHolderStopped(holder, stopped('boot:1'))).toBe(true);
    expect(await isHolderStopped(holder, running)).toBe(false);
    // Its pid now names another process, which happens to be stopped: not the holder.
    expect(await isHolderStopped(holder, stopped('boot:2'))).toBe(false);
    expect(await isHolderStopped({ ...holder, hostname: `${os.hostname()}-elsewhere` }, stopped('boot:1'))).toBe(false);
    expect(await isHolderStopped(undefined, stopped('boot:1'))).toBe(false);
  });

  it.runIf(process.platform === 'linux')('reads a running process as not stopped', async () => {
    expect(await isHolderStopped(newLockHolder('a test', await ownStartTime()))).toBe(false);
  });
});
