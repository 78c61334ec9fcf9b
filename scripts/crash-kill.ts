import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runKills, type KillReport } from '../electron/checkpoints/test-support/crash-kill';
import { crashOperations, type CrashOperation } from '../electron/checkpoints/test-support/crash-states';

/**
 * The long SIGKILL series: `tsx scripts/crash-kill.ts [--kills N] [--seed S] [--out FILE] [OPERATION ...]`
 * (default: 1,000 kills of each of checkpoint, restore, prune and cut, seed 1). Writes the counts
 * so far to FILE (JSON) after every 25 kills, so a run cut short still says what it checked.
 * `npm run bench -- crash` runs it too; the numbers go to docs/reliability.md.
 */
function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index < 0 ? fallback : (process.argv[index + 1] ?? fallback);
}

const kills = Number(option('--kills', '1000'));
const seed = Number(option('--seed', '1'));
const out = option('--out', '');
const named = process.argv.slice(2).filter((arg, index, all) => !arg.startsWith('--') && !all[index - 1]?.startsWith('--'));
const operations = named.length > 0 ? (named as CrashOperation[]) : crashOperations;

const reports: KillReport[] = [];
const progress: Record<string, { kills: number; afterAck: number; failures: readonly string[] }> = {};
const save = (): void => {
  if (out !== '') writeFileSync(out, JSON.stringify({ seed, kills, progress, reports }, null, 2));
};
const scratch = mkdtempSync(path.join(os.tmpdir(), 'vigil-crash-kill-'));
try {
  for (const operation of operations) {
    const started = Date.now();
    const report = await runKills(operation, scratch, {
      kills,
      seed,
      onKill: (done, failures, afterAck) => {
        progress[operation] = { kills: done, afterAck, failures: failures.slice(0, 20) };
        if (done % 25 === 0) {
          save();
          process.stdout.write(`${operation}: ${done}/${kills} kills\n`);
        }
      },
    });
    reports.push(report);
    save();
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    process.stdout.write(
      `${operation}: ${report.kills} kills (${report.afterAck} after an acknowledgement), ${report.failures.length} failed, ${seconds} s\n`,
    );
    for (const failure of report.failures.slice(0, 20)) process.stdout.write(`  ${failure}\n`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (reports.some((report) => report.failures.length > 0)) process.exitCode = 1;
