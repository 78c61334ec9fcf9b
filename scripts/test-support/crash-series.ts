import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runKills, type KillReport } from '../../electron/checkpoints/test-support/crash-kill';
import { crashOperations, type CrashOperation } from '../../electron/checkpoints/test-support/crash-states';

export { crashOperations, type CrashOperation };
import { checkPowerCuts, type PowerCutReport } from '../../electron/checkpoints/test-support/power-cut';
import { hasStrace } from '../../electron/checkpoints/test-support/power-cut-trace';
import { runRaceTrial } from '../../electron/checkpoints/test-support/restore-race-trial';

/** Progress of a long series, written as it goes so a run cut short still says what it checked. */
type Progress = Record<string, { kills: number; afterAck: number; failures: readonly string[] }>;

/** SIGKILLs each operation `kills` times (see runKills), saving the counts so far to `out` (JSON) every 25 kills. */
export async function runKillSeries(options: {
  readonly kills: number;
  readonly seed: number;
  readonly operations?: readonly CrashOperation[];
  readonly out?: string;
  /** How many operations are killed at once (each on its own store); 1 by default. */
  readonly jobs?: number;
  readonly log: (line: string) => void;
}): Promise<KillReport[]> {
  const reports: KillReport[] = [];
  const progress: Progress = {};
  const save = (): void => {
    if (options.out !== undefined)
      writeFileSync(options.out, JSON.stringify({ ...options, progress, reports }, null, 2));
  };
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'vigil-crash-kill-'));
  try {
    const queue = [...(options.operations ?? crashOperations)];
    const worker = async (): Promise<void> => {
      for (let operation = queue.shift(); operation !== undefined; operation = queue.shift()) {
        const report = await runKills(operation, scratch, {
          kills: options.kills,
          seed: options.seed,
          onKill: (done, failures, afterAck) => {
            progress[operation] = { kills: done, afterAck, failures: failures.slice(0, 20) };
            if (done % 25 !== 0) return;
            save();
            options.log(`${operation}: ${done}/${options.kills} kills, ${failures.length} failed`);
          },
        });
        reports.push(report);
        save();
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.jobs ?? 1) }, worker));
    reports.sort((x, y) => crashOperations.indexOf(x.operation) - crashOperations.indexOf(y.operation));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return reports;
}

/** The power-cut check of every operation (undefined when strace cannot run here). */
export async function runPowerCutSeries(options: {
  readonly seed: number;
  readonly maxPrefixes: number;
  readonly omit: number;
  readonly log: (line: string) => void;
}): Promise<PowerCutReport[] | undefined> {
  if (process.platform !== 'linux' || !hasStrace()) return undefined;
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'vigil-power-cut-'));
  try {
    const reports: PowerCutReport[] = [];
    for (const operation of crashOperations) {
      const report = await checkPowerCuts(operation, scratch, options);
      options.log(`${operation}: ${report.states} crash states, ${report.failed} failed`);
      reports.push(report);
    }
    return reports;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Restores racing a symlink swap (see restore-race-trial.ts): trials run, and those that broke a promise. */
export async function runRaceSeries(options: {
  readonly trials: number;
  readonly seed: number;
}): Promise<{ trials: number; broken: string[] }> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'vigil-restore-race-'));
  const broken: string[] = [];
  try {
    for (let seed = options.seed; seed < options.seed + options.trials; seed += 1) {
      const trial = await runRaceTrial(scratch, seed);
      if (trial.violations.length > 0) broken.push(`seed ${seed}: ${trial.violations.slice(0, 3).join('; ')}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return { trials: options.trials, broken };
}
