import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { testSeed } from '../test-support/seeded-random';
import { crashOperations } from './test-support/crash-states';
import { checkPowerCuts } from './test-support/power-cut';
import { hasStrace } from './test-support/power-cut-trace';

/** Cut points per operation in `npm test`; `npm run bench -- crash` checks every fsync, rename and acknowledgement. */
const maxPrefixes = 8;
const seed = testSeed(2908);
const isTraceable = process.platform === 'linux' && hasStrace();
if (!isTraceable)
  process.stderr.write(
    'power-cut.test.ts: skipped, strace is not installed or cannot trace here (apt-get install strace)\n',
  );

let scratch: string;
let remove: () => Promise<void>;
beforeAll(async () => {
  ({ dir: scratch, remove } = await makeTempDir('vigil-power-cut-'));
});
afterAll(async () => {
  await remove();
});

describe.skipIf(!isTraceable)(
  'a power cut during a store operation (crash states built from its strace, ALICE-style)',
  () => {
    it.each(crashOperations)(
      `%s: every crash state passes git fsck --strict once reopened, keeps every acknowledged checkpoint, and a restore's undo point is whole (seed ${seed})`,
      async (operation) => {
        const report = await checkPowerCuts(operation, scratch, { seed, maxPrefixes, omit: 1 });
        expect(report.failures).toEqual([]);
        expect(report.fsyncs).toBeGreaterThan(0);
        expect(report.states).toBeGreaterThanOrEqual(maxPrefixes);
      },
      600_000,
    );
  },
);
