import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchArea, BenchContext, BenchTable } from './harness';
import { cli, startServe, vigilBenchEnv } from './vigil-process';

/**
 * Resident memory (issue 31): whole processes, as a user runs them. `vigil serve` on a fresh
 * VIGIL_HOME takes a first checkpoint of generated trees (relayed from the CLI), then sits idle
 * until it has settled (its stat caches saved and compacted 15 s after the last snapshot, its
 * hashing workers let go 20 s after their last batch); RSS and its high-water mark are read from
 * /proc/PID/status. A first 200k snapshot's peak is also measured without a core: the one-shot
 * CLI's own VmHWM, polled until it exits. Every process starts the hashing workers a quiet host
 * would (one per core, `VIGIL_HASH_WORKERS`): each worker adds to the peak, and a one-shot process
 * on a busy host would start fewer.
 */

const mib = 1024 * 1024;
/** Long enough for the stat cache's save (15 s after the last snapshot) and the workers' idle exit (20 s). */
const settleMs = 45_000;

/** A generated project as the CLI benchmarks': 50 files per leaf folder, 10 leaves per top folder, 30–550 bytes each. */
function generate(dir: string, count: number): void {
  for (let index = 0; index < count; index += 1) {
    const file = path.join(dir, `t${Math.floor(index / 500)}/l${Math.floor(index / 50) % 10}/f${index}.txt`);
    if (index % 50 === 0) mkdirSync(path.dirname(file), { recursive: true });
    const line = `file ${index} version 0 `;
    writeFileSync(file, `${line.repeat(Math.ceil((30 + ((index * 7919) % 520)) / line.length))}\n`);
  }
}

/** VmRSS and VmHWM of a live process, in bytes (0 once it is gone). */
function memoryOf(pid: number): { readonly rss: number; readonly hwm: number } {
  let status = '';
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return { rss: 0, hwm: 0 };
  }
  const field = (name: string): number =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

/** Runs one `vigil` process to its end, polling its VmHWM (the last value read before it exits); its peak in bytes. */
async function peakOf(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, [cli, ...args], { env, stdio: 'ignore' });
  let peak = 0;
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const poll = setInterval(() => {
    if (child.pid !== undefined) peak = Math.max(peak, memoryOf(child.pid).hwm);
  }, 20);
  const code = await exited;
  clearInterval(poll);
  if (code !== 0) throw new Error(`vigil ${args.join(' ')} exited with ${String(code)}`);
  return peak;
}

/** A relayed (or local) `vigil checkpoint DIR`, to its end. */
async function checkpoint(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  await peakOf(['checkpoint', dir], env);
}

/** The bench's environment for a fresh VIGIL_HOME under `base`, with a quiet host's hashing workers (one per core, up to 4). */
function benchEnv(base: string): NodeJS.ProcessEnv {
  return { ...vigilBenchEnv(base), VIGIL_HASH_WORKERS: String(quietWorkers()) };
}

/** How many hashing workers a quiet host of this machine starts. */
function quietWorkers(): number {
  return Math.max(1, Math.min(4, os.availableParallelism()));
}

/** The load average (1 min) now, for the rows' before/after. */
function load(): string {
  return (os.loadavg()[0] ?? 0).toFixed(1);
}

interface CoreRun {
  readonly idle: number;
  readonly peak: number;
  readonly settled: number;
  readonly loads: string;
}

/** `vigil serve` takes a first checkpoint of each of `dirs` in turn, then settles; its RSS at each stage. */
async function residentCore(base: string, dirs: readonly string[], context: BenchContext): Promise<CoreRun> {
  const before = load();
  // VIGIL_NO_CORE=1: the CLI relays to this `vigil serve` and never starts a background core of its own.
  const env = benchEnv(mkdtempSync(path.join(base, 'core-')));
  const serve = await startServe(env);
  const pid = serve.pid ?? 0;
  try {
    await sleep(2_000);
    const idle = memoryOf(pid).rss;
    for (const dir of dirs) await checkpoint(dir, env);
    await sleep(context.isQuick ? 40_000 : settleMs);
    const { rss: settled, hwm: peak } = memoryOf(pid);
    context.log(`core over ${dirs.length} folder(s): idle ${mb(idle)}, peak ${mb(peak)}, settled ${mb(settled)}`);
    return { idle, peak, settled, loads: `${before} / ${load()}` };
  } finally {
    serve.kill();
  }
}

function mb(bytes: number): string {
  return `${(bytes / mib).toFixed(0)} MiB`;
}

function verdict(label: string, value: number, limitMiB: number): string {
  return `${label}: ${mb(value)} (target ≤ ${limitMiB} MiB): ${value <= limitMiB * mib ? 'met' : 'NOT met'}`;
}

export const run: BenchArea = async (context) => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-core-memory-'));
  const [small, big] = context.isQuick ? [5_000, 20_000] : [50_000, 200_000];
  const k = (count: number): string => `${count / 1000}k`;
  try {
    context.log(`generating four ${k(small)} trees and one ${k(big)} tree`);
    const folders = [0, 1, 2, 3].map((index) => path.join(base, `tree${index}`));
    for (const folder of folders) generate(folder, small);
    const bigTree = path.join(base, 'big');
    generate(bigTree, big);
    const one = await residentCore(base, folders.slice(0, 1), context);
    const four = await residentCore(base, folders, context);
    const bigCore = await residentCore(base, [bigTree], context);
    const noCoreBefore = load();
    const noCore = await peakOf(['checkpoint', bigTree], benchEnv(mkdtempSync(path.join(base, 'local-'))));
    const noCoreLoads = `${noCoreBefore} / ${load()}`;
    const table: BenchTable = {
      caption: 'Resident memory, whole processes (`vigil serve` RSS from /proc; load average before / after each row)',
      columns: ['Case', 'Idle RSS', 'Peak RSS (VmHWM)', 'Settled RSS', 'Target', 'Load'],
      rows: [
        [
          `Resident core, first snapshot of one ${k(small)} folder`,
          mb(one.idle),
          mb(one.peak),
          mb(one.settled),
          '≤ 200 MiB settled',
          one.loads,
        ],
        [
          `Resident core, four ${k(small)} folders watched`,
          mb(four.idle),
          mb(four.peak),
          mb(four.settled),
          '≤ 350 MiB settled',
          four.loads,
        ],
        [
          `Resident core, first snapshot of ${k(big)}`,
          mb(bigCore.idle),
          mb(bigCore.peak),
          mb(bigCore.settled),
          '≤ 500 MiB peak',
          bigCore.loads,
        ],
        [
          `No core (\`VIGIL_NO_CORE=1\`), first snapshot of ${k(big)}`,
          '',
          mb(noCore),
          '',
          '≤ 500 MiB peak',
          noCoreLoads,
        ],
      ],
    };
    return {
      title: 'Resident core memory (npm run bench -- core-memory)',
      method:
        'Generated trees of small files (50 a folder), each process on its own VIGIL_HOME. A resident core is `vigil serve`; the CLI relays each first ' +
        '`vigil checkpoint` to it; "settled" is its VmRSS 45 s after the last one (the stat caches saved and compacted after 15 s quiet, the hashing ' +
        `workers let go once a batch of 10,000 files or more is hashed, else after 20 s idle), "peak" its VmHWM. The no-core row is the one-shot CLI's own VmHWM. Every process starts ${quietWorkers()} ` +
        'hashing worker(s), as on a quiet host (`VIGIL_HASH_WORKERS`; a one-shot process on a busy host would start fewer). Memory hardly depends on the load of this ' +
        'shared machine; the times do not appear here.',
      tables: [table],
      verdicts: [
        verdict(`Resident core after one ${k(small)} first snapshot, settled`, one.settled, 200),
        verdict(`Resident core with four ${k(small)} folders, settled`, four.settled, 350),
        verdict(`First ${k(big)} snapshot, resident core, peak`, bigCore.peak, 500),
        verdict(`First ${k(big)} snapshot, no core, peak`, noCore, 500),
      ],
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
};
