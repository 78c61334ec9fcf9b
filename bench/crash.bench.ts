import { runKillSeries, runPowerCutSeries, runRaceSeries } from '../scripts/test-support/crash-series';
import type { BenchArea, BenchContext, BenchSection } from './harness';

/**
 * Crash safety, counted rather than timed: 1,000 SIGKILLs at seeded random moments of each of
 * checkpoint, restore, prune and the retention cut; every crash state a power cut may leave
 * (ALICE-style, from each operation's strace); and restores racing a folder swapped for a symlink.
 * Method and the rules modelled: docs/reliability.md.
 */
export const run: BenchArea = async (context: BenchContext): Promise<BenchSection> => {
  const { isQuick } = context;
  const log = (line: string): void => context.log(line);
  const kills = await runKillSeries({ kills: isQuick ? 3 : 1000, seed: 1, jobs: 2, log });
  const power = await runPowerCutSeries({ seed: 1, maxPrefixes: isQuick ? 6 : 400, omit: isQuick ? 1 : 4, log });
  const race = await runRaceSeries({ trials: isQuick ? 4 : 200, seed: 2900 });
  const failures = kills.reduce((sum, report) => sum + report.failures.length, 0);
  const statesFailed = power?.reduce((sum, report) => sum + report.failed, 0) ?? 0;
  return {
    title: 'Crash safety (npm run bench -- crash)',
    method:
      'Counts, not times. Kills: a child runs the operation in a loop and is SIGKILLed at a seeded random moment; after each kill the store is reopened and checked (git fsck --strict, acknowledged checkpoints listed, the undo point whole). Power cuts: crash states built from the strace of one run of each operation (see docs/reliability.md). Race: restores while another process swaps a folder for a symlink to outside every 2 ms.',
    tables: [
      {
        caption: 'SIGKILL at random points (seed 1)',
        columns: ['operation', 'kills', 'kills after an acknowledgement', 'median round (ms)', 'failed'],
        rows: kills.map((report) => [
          report.operation,
          String(report.kills),
          String(report.afterAck),
          String(Math.round(report.medianRoundMs)),
          String(report.failures.length),
        ]),
      },
      {
        caption:
          power === undefined ? 'Power cuts: skipped (strace cannot run here)' : 'Power cuts (ALICE-style, seed 1)',
        columns: ['operation', 'calls traced', 'fsyncs', 'cut points', 'crash states checked', 'failed'],
        rows: (power ?? []).map((report) => [
          report.operation,
          String(report.calls),
          String(report.fsyncs),
          String(report.prefixes),
          String(report.states),
          String(report.failed),
        ]),
      },
      {
        caption: 'Restore racing a symlink swap',
        columns: ['trials', 'broke a promise'],
        rows: [[String(race.trials), String(race.broken.length)]],
      },
    ],
    verdicts: [
      `SIGKILL: ${failures === 0 ? 'met' : 'NOT met'} (${failures} failed)`,
      `Power cut: ${statesFailed === 0 ? 'met' : 'NOT met'} (${statesFailed} crash states failed)`,
      `Race: ${race.broken.length === 0 ? 'met' : 'NOT met'} (${race.broken.slice(0, 3).join('; ')})`,
    ],
  };
};
