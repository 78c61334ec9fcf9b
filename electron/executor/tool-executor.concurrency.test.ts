import { describe, it } from 'vitest';
import { runConcurrencyWorkload } from './test-support/concurrency-workload';

/** 8 sessions × 100 calls at once in ONE shared folder (see test-support/concurrency-workload.ts). */
describe('8 sessions × 100 calls at once', () => {
  it('in one shared folder: no lost write, no deadlock, every checkpoint attributed to its session and turn', async () => {
    await runConcurrencyWorkload((harness) => harness.workspace);
  }, 180_000);
});
