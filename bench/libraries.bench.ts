import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BenchArea } from './harness';
import { compareChunkPlan } from './libraries-chunks';
import { compareLocks } from './libraries-lock';
import { compareShellParsers } from './libraries-shell';
import { loadAverage } from './process-sample';

/**
 * Hand-written parts against the libraries that could replace them (issue #34 item 7): the shell
 * parser against mvdan-sh and sh-syntax, the lock file against proper-lockfile, and the build's
 * chunk plan on and off. Each row says what the replacement would cost or break; the decision
 * follows the numbers.
 */
export const run: BenchArea = async (context) => {
  const base = await mkdtemp(path.join(os.tmpdir(), 'vigil-bench-libraries-'));
  const loadBefore = loadAverage();
  try {
    const shell = await compareShellParsers(context, base);
    const locks = await compareLocks(context, base);
    const chunks = await compareChunkPlan(context, base);
    const loadAfter = loadAverage();
    return {
      title: 'Hand-written or a library: shell parser, lock file, chunk plan',
      method:
        'Whole processes where a one-shot process pays the load (`vigil hook`), alternating run by run, medians; warm times in this process, alternating pass by pass. ' +
        `The machine was shared with other builds and tests (1-minute load average ${loadBefore} before, ${loadAfter} after): compare rows of one run, not runs.`,
      tables: [...shell.tables, ...locks.tables, ...chunks.tables],
      verdicts: [...shell.verdicts, ...locks.verdicts, ...chunks.verdicts],
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
};
