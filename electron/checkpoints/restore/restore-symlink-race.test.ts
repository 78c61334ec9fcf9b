import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { testSeed } from '../../test-support/seeded-random';
import { runRaceTrial, type RaceTrial } from '../test-support/restore-race-trial';

/** Trials in `npm test`; `npm run bench -- crash` runs many more. */
const trials = 16;
const firstSeed = testSeed(2900);

let base: string;
let remove: () => Promise<void>;
beforeAll(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-restore-race-'));
});
afterAll(async () => {
  await remove();
});

describe('a restore racing a folder swapped for a symlink to outside the workspace', () => {
  it(`never writes or leaves temp files outside, never loses a file, and reports what it left (seeds ${firstSeed}…${firstSeed + trials - 1})`, async () => {
    const found: RaceTrial[] = [];
    for (let seed = firstSeed; seed < firstSeed + trials; seed += 1) found.push(await runRaceTrial(base, seed));
    const broken = found.filter((trial) => trial.violations.length > 0);
    const summary = broken.map(
      (trial) =>
        `seed ${trial.seed}: ${trial.violations.slice(0, 6).join('; ')}${trial.refusal === '' ? '' : ` (the restore was refused: ${trial.refusal})`}`,
    );
    expect(summary, `${broken.length} of ${trials} trials broke a promise (replay with VIGIL_TEST_SEED)`).toEqual([]);
    // The race really ran: the folder was swapped while restores were under way.
    expect(found.every((trial) => trial.swaps > 0)).toBe(true);
  }, 300_000);
});
