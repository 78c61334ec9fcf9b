import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { testSeed } from '../test-support/seeded-random';
import { runKills } from './test-support/crash-kill';
import { crashOperations } from './test-support/crash-states';

/** Kills per operation in `npm test`; `npm run bench -- crash` runs 1,000 each. */
const kills = Number(process.env.VIGIL_CRASH_KILLS ?? 30);
const seed = testSeed(2907);

let scratch: string;
let remove: () => Promise<void>;
beforeAll(async () => {
  ({ dir: scratch, remove } = await makeTempDir('vigil-crash-kill-'));
});
afterAll(async () => {
  await remove();
});

describe('store operations killed with SIGKILL at seeded random moments', () => {
  it.each(crashOperations)(
    `%s: after each of ${kills} kills git fsck --strict passes, every acknowledged checkpoint is listed, and a restore's undo point is whole (seed ${seed})`,
    async (operation) => {
      const report = await runKills(operation, scratch, { kills, seed });
      expect(report.failures).toEqual([]);
      // Some kills landed after an acknowledgement, so the timeline's promise was put to the test.
      if (kills >= 20) expect(report.afterAck).toBeGreaterThan(0);
    },
    600_000,
  );
});
