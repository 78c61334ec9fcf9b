import path from 'node:path';
import { describe, it } from 'vitest';
import { runConcurrencyWorkload } from './test-support/concurrency-workload';

/** 8 sessions × 100 calls at once, EACH in its own folder (see test-support/concurrency-workload.ts). */
describe('8 sessions × 100 calls at once', () => {
  it('each in its own folder: no lost write, no deadlock, every checkpoint attributed to its session and turn', async () => {
    await runConcurrencyWorkload((harness, index) => path.join(harness.workspace, `root-${index}`));
  }, 180_000);
});
