import { crashOperations, runKillSeries, type CrashOperation } from './test-support/crash-series';

/**
 * The long SIGKILL series: `tsx scripts/crash-kill.ts [--kills N] [--seed S] [--jobs J] [--out FILE] [OPERATION ...]`
 * (default: 1,000 kills of each of checkpoint, restore, prune and cut, seed 1). FILE (JSON) holds the
 * counts so far, rewritten every 25 kills. J operations are killed at once, each on its own store (default 1). `npm run bench -- crash` runs the same series.
 */
function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index < 0 ? fallback : (process.argv[index + 1] ?? fallback);
}

const named = process.argv
  .slice(2)
  .filter((arg, index, all) => !arg.startsWith('--') && all[index - 1]?.startsWith('--') !== true);
const reports = await runKillSeries({
  kills: Number(option('--kills', '1000')),
  seed: Number(option('--seed', '1')),
  operations: named.length > 0 ? (named as CrashOperation[]) : crashOperations,
  out: option('--out', '') === '' ? undefined : option('--out', ''),
  jobs: Number(option('--jobs', '1')),
  log: (line) => process.stdout.write(`${line}\n`),
});
for (const report of reports) {
  process.stdout.write(
    `${report.operation}: ${report.kills} kills (${report.afterAck} after an acknowledgement, median round ${Math.round(report.medianRoundMs)} ms), ${report.failures.length} failed\n`,
  );
  for (const failure of report.failures.slice(0, 20)) process.stdout.write(`  ${failure}\n`);
}
if (reports.some((report) => report.failures.length > 0)) process.exitCode = 1;
