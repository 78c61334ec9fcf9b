import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { silentLogger } from '../../logging/logger';
import { repoRoot } from '../../test-support/run-vigil';
import { seededRandom } from '../../test-support/seeded-random';
import { CheckpointService } from '../checkpoint-service';
import { writeFiles } from './restore-fixtures';
import { acknowledged, checkAfterCrash, crashStates, type CrashOperation } from './crash-states';

const childSource = path.join(repoRoot, 'electron/checkpoints/test-support/crash-ops.child.ts');

/**
 * The child bundled into one plain-JS file (esbuild, already a dependency of the build): a kill
 * series spawns it a thousand times, and starting it through tsx's loader costs seconds on a busy machine.
 */
export async function bundleChild(scratch: string): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = path.join(scratch, 'crash-ops.child.mjs');
  await build({
    entryPoints: [childSource],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'error',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return outfile;
}

/**
 * The first kill's window after "ready" (ms), per operation: a few rounds of each on a busy
 * machine. Later kills use the rounds the child itself timed (see `nextWindow`), so a
 * quiet machine does not spend most of a series waiting, and a loaded one still spreads its kills
 * over every phase of a round and past its acknowledgement.
 */
const firstWindow: Readonly<Record<CrashOperation, number>> = {
  checkpoint: 1500,
  prune: 2500,
  cut: 3000,
  restore: 2500,
};

/** The shortest window (ms): below it, the child's start and the kill's own latency dominate. */
const minimumWindow = 120;

/** What a series of kills found. */
export interface KillReport {
  readonly operation: CrashOperation;
  readonly seed: number;
  readonly kills: number;
  /** Kills that landed after at least one acknowledgement (the rest hit the first step). */
  readonly afterAck: number;
  readonly failures: readonly string[];
  /** The median length of one round of the operation, as the children timed it (ms). */
  readonly medianRoundMs: number;
}

/** What one killed child printed, and how long its finished rounds took (ms): its first, and the later ones. */
interface KilledRun {
  readonly output: string;
  readonly first: readonly number[];
  readonly rounds: readonly number[];
}

/** Runs the child until `delay` ms after it is ready, SIGKILLs it, and returns what it printed. */
function runAndKill(child: string, args: readonly string[], delay: number): Promise<KilledRun> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const isReady = !out.includes('ready\n') && `${out}${chunk}`.includes('ready\n');
      out += chunk;
      if (isReady) void sleep(delay).then(() => proc.kill('SIGKILL'));
    });
    proc.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve({ output: out, ...roundLengths(out) });
      else reject(new Error(`the ${args[0] ?? ''} child exited by itself (code ${String(code)}): ${err}`));
    });
  });
}

/**
 * The lengths of the rounds the child finished (ms), from the child's own clock on its "round MS"
 * lines: the harness reading several lines in one chunk on a busy machine does not shorten them.
 * The first round is apart: a fresh process's first round is several times slower than the rest.
 */
function roundLengths(output: string): { first: number[]; rounds: number[] } {
  const starts = [...output.matchAll(/^round (\d+)$/gmu)].map((match) => Number(match[1]));
  const lengths = starts.slice(1).map((start, index) => start - (starts[index] ?? start));
  return { first: lengths.slice(0, 1), rounds: lengths.slice(1) };
}

/** The median of the round lengths seen so far (0 when none). */
function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * The window of kill number `kill`: the median first round seen lately plus two later rounds, so
 * about half the kills land after the run's first acknowledgement. Every 20th kill (the first
 * included) waits the long first window instead, so rounds slower than the window are still timed
 * and a machine that slows down widens the window again rather than shrinking it.
 */
function nextWindow(operation: CrashOperation, kill: number, seen: { first: number[]; rounds: number[] }): number {
  const first = median(seen.first.slice(-30));
  if (kill % 20 === 0 || first === 0) return firstWindow[operation];
  const later = median(seen.rounds.slice(-60));
  return Math.max(minimumWindow, Math.round(first + 2 * (later === 0 ? first : later)));
}

/** A project with a first checkpoint (for a restore: the A state, pinned, whose id the child restores to). */
async function prepare(operation: CrashOperation, root: string, dir: string): Promise<{ base: string; head: string }> {
  mkdirSync(dir, { recursive: true });
  writeFiles(dir, crashStates[operation].files().a);
  const service = new CheckpointService({ root, logger: silentLogger });
  try {
    const outcome = await service.checkpoint(dir, { reason: 'before write_file' });
    if (outcome.kind !== 'created') throw new Error('no first checkpoint');
    if (operation === 'restore') await service.pin(dir, outcome.checkpoint.id, true);
    return { base: outcome.checkpoint.id, head: outcome.checkpoint.id };
  } finally {
    await service.dispose();
  }
}

/**
 * SIGKILLs a child running `operation` in a loop `kills` times, each at a seeded random moment,
 * on one store and project that carry over from kill to kill; after each kill the store is
 * reopened and checked (see checkAfterCrash). `onKill` hears of each kill (progress).
 */
export async function runKills(
  operation: CrashOperation,
  scratch: string,
  options: {
    readonly kills: number;
    readonly seed: number;
    readonly onKill?: (done: number, failures: readonly string[], afterAck: number) => void;
  },
): Promise<KillReport> {
  const random = seededRandom(options.seed);
  const root = path.join(scratch, operation, 'home', 'checkpoints');
  const dir = path.join(scratch, operation, 'project');
  const prepared = await prepare(operation, root, dir);
  const child = await bundleChild(path.join(scratch, operation));
  let head: string | undefined = prepared.head;
  const failures: string[] = [];
  const seen = { first: [] as number[], rounds: [] as number[] };
  let afterAck = 0;
  for (let kill = 0; kill < options.kills; kill += 1) {
    const delay = Math.floor(random() * nextWindow(operation, kill, seen));
    const run = await runAndKill(child, [operation, root, dir, '', prepared.base], delay);
    seen.first.push(...run.first);
    seen.rounds.push(...run.rounds);
    const output = run.output;
    const acks = acknowledged(output, head);
    if (acks.checkpoints.length > (head === undefined ? 0 : 1) || acks.restoring !== undefined) afterAck += 1;
    const checked = await checkAfterCrash(operation, root, dir, acks);
    for (const violation of checked.violations) failures.push(`kill ${kill} (after ${delay} ms): ${violation}`);
    head = checked.head;
    options.onKill?.(kill + 1, failures, afterAck);
  }
  return {
    operation,
    seed: options.seed,
    kills: options.kills,
    afterAck,
    failures,
    medianRoundMs: median(seen.rounds.length > 0 ? seen.rounds : seen.first),
  };
}
