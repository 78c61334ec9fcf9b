import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { summarize } from './harness';
import { withoutCaBundle } from './vigil-process';

/** A line that makes a script report its own CPU time (user + system) on stderr at exit. */
export const exitCpuReport =
  "process.on('exit', () => { const c = process.cpuUsage(); process.stderr.write('CPU ' + (c.user + c.system) + '\\n'); });";

/** One whole process: its wall time (start to exit) and the CPU time it reported, in milliseconds. */
export interface ProcessSample {
  readonly wall: number;
  readonly cpu: number;
}

/** Runs `node file ...args` once (without the CA bundle, see vigil-process.ts); fails when it fails. */
export function runScript(file: string, args: readonly string[] = []): ProcessSample {
  const start = performance.now();
  const result = spawnSync(process.execPath, [file, ...args], {
    env: withoutCaBundle(process.env),
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const wall = performance.now() - start;
  const cpu = /CPU (\d+)/.exec(result.stderr);
  if (result.status !== 0 || cpu === null)
    throw new Error(`${file} failed (${String(result.status)}): ${result.stderr}`);
  return { wall, cpu: Number(cpu[1]) / 1000 };
}

/** Runs each script `runs` times, alternating run by run; the median wall and CPU time of each. */
export function alternate(files: Readonly<Record<string, string>>, runs: number): Map<string, ProcessSample> {
  const samples = new Map<string, { wall: number[]; cpu: number[] }>();
  for (let run = 0; run < runs; run += 1) {
    for (const [name, file] of Object.entries(files)) {
      const sample = runScript(file);
      const list = samples.get(name) ?? { wall: [], cpu: [] };
      list.wall.push(sample.wall);
      list.cpu.push(sample.cpu);
      samples.set(name, list);
    }
  }
  return new Map(
    [...samples].map(([name, list]) => [name, { wall: summarize(list.wall).median, cpu: summarize(list.cpu).median }]),
  );
}

/** The 1-minute load average, for the note beside the numbers (the machine is shared). */
export function loadAverage(): string {
  return (os.loadavg()[0] ?? 0).toFixed(1);
}
