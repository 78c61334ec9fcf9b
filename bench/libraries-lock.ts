import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';
import { FileLock } from '../electron/locks';
import { formatMs, formatRatio, summarize, type BenchContext, type BenchTable } from './harness';
import { libraryStaleMs, writeContenders, type LockKind } from './lock-contenders';
import { withoutCaBundle } from './vigil-process';

/** What the lock-file comparison found: its tables and the decision they support. */
export interface LockComparison {
  readonly tables: readonly BenchTable[];
  readonly verdicts: readonly string[];
}

const kinds: readonly LockKind[] = ['ours', 'library'];
const kindNames: Record<LockKind, string> = {
  ours: 'Vigil’s FileLock (electron/locks)',
  library: `proper-lockfile 4.1.2 (stale ${libraryStaleMs / 1000} s, its minimum)`,
};

function start(file: string, args: readonly string[]): ChildProcess {
  return spawn(process.execPath, [file, ...args], {
    env: withoutCaBundle(process.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Resolves with everything the process printed once it exits. */
function output(child: ChildProcess): Promise<string> {
  let text = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return new Promise((resolve) => child.on('close', () => resolve(text)));
}

function printed(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve) => {
    let seen = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      seen += chunk;
      if (seen.includes(text)) resolve();
    });
  });
}

/** Median acquire + release of a free lock in this process. */
async function uncontended(dir: string, runs: number): Promise<Record<LockKind, number>> {
  const ours = new FileLock({ path: path.join(dir, 'ours.lock'), resource: 'the bench resource' });
  const target = path.join(dir, 'library-target');
  const samples: Record<LockKind, number[]> = { ours: [], library: [] };
  for (let run = 0; run < runs; run += 1) {
    let begin = performance.now();
    await ours.withLock(() => Promise.resolve());
    samples.ours.push(performance.now() - begin);
    begin = performance.now();
    const release = await lockfile.lock(target, { realpath: false, stale: libraryStaleMs });
    await release();
    samples.library.push(performance.now() - begin);
  }
  return { ours: summarize(samples.ours).median, library: summarize(samples.library).median };
}

/** `processes` contenders adding to one counter under the lock: the wall time, lost updates, and overlapping holds. */
async function contended(
  file: string,
  dir: string,
  processes: number,
  times: number,
): Promise<{ wall: number; lost: number; overlaps: number }> {
  const counter = path.join(dir, 'counter');
  const log = path.join(dir, 'log');
  await rm(counter, { force: true });
  await rm(log, { force: true });
  const begin = performance.now();
  const children = Array.from({ length: processes }, () =>
    start(file, ['count', path.join(dir, 'count.lock'), counter, log, String(times)]),
  );
  await Promise.all(children.map(output));
  const wall = performance.now() - begin;
  const value = Number(await readFile(counter, 'utf8').catch(() => '0'));
  let inside = 0;
  let overlaps = 0;
  for (const line of (await readFile(log, 'utf8')).trim().split('\n')) {
    inside += line.startsWith('enter') ? 1 : -1;
    if (inside > 1) overlaps += 1;
  }
  return { wall, lost: processes * times - value, overlaps };
}

/** A holder is killed (SIGKILL) or stopped (SIGSTOP) while it holds the lock; what a contender then gets. */
async function afterHolder(file: string, dir: string, signal: 'SIGKILL' | 'SIGSTOP'): Promise<string> {
  const lockPath = path.join(dir, `${signal}.lock`);
  const holder = start(file, ['hold', lockPath]);
  await printed(holder, 'held');
  holder.kill(signal);
  if (signal === 'SIGSTOP') await sleep(libraryStaleMs + 1_000);
  const answer = (await output(start(file, ['take', lockPath]))).trim();
  holder.kill('SIGKILL');
  const took = /^took (\d+)/.exec(answer);
  if (took !== null)
    return signal === 'SIGSTOP'
      ? `**taken while the stopped holder still holds it** (after ${took[1]} ms)`
      : `taken after ${took[1]} ms`;
  const refused = /^refused after (\d+) ms: (\S*)/.exec(answer);
  if (refused === null) return answer.slice(0, 120);
  return `refused after ${refused[1]} ms (${refused[2] || 'error'}${/stopped/i.test(answer) ? ', the message names the holder and says it is stopped' : ''})`;
}

/** Re-entry: a holder takes the same lock again inside its task. */
async function reentry(dir: string): Promise<Record<LockKind, string>> {
  const ours = new FileLock({ path: path.join(dir, 'reenter.lock'), resource: 'the bench resource' });
  const inner = await ours
    .withLock(() => ours.withLock(() => Promise.resolve('held again')))
    .catch((error: unknown) => String(error));
  const target = path.join(dir, 'reenter-library');
  const release = await lockfile.lock(target, { realpath: false });
  const library = await lockfile
    .lock(target, { realpath: false })
    .then(async (again) => {
      await again();
      return 'held again';
    })
    .catch((error: unknown) => `refused: ${(error as { code?: string }).code ?? String(error)}`);
  await release();
  return { ours: inner, library };
}

/** Vigil's lock file against proper-lockfile: speed free and contended, and the scenarios Vigil's lock tests demand. */
export async function compareLocks(context: BenchContext, base: string): Promise<LockComparison> {
  const dir = path.join(base, 'locks');
  await mkdir(dir, { recursive: true });
  const files = await writeContenders(dir);
  const runs = context.isQuick ? 20 : 200;
  const processes = 4;
  const times = context.isQuick ? 5 : 25;
  const rounds = context.isQuick ? 1 : 3;
  context.log(`locks: ${runs} free acquisitions, ${rounds} rounds of ${processes} processes × ${times}`);
  const free = await uncontended(dir, runs);
  const busy: Record<LockKind, { wall: number[]; lost: number; overlaps: number }> = {
    ours: { wall: [], lost: 0, overlaps: 0 },
    library: { wall: [], lost: 0, overlaps: 0 },
  };
  for (let round = 0; round < rounds; round += 1)
    for (const kind of kinds) {
      const result = await contended(files[kind], dir, processes, times);
      busy[kind].wall.push(result.wall);
      busy[kind].lost += result.lost;
      busy[kind].overlaps += result.overlaps;
    }
  const killed = {
    ours: await afterHolder(files.ours, dir, 'SIGKILL'),
    library: await afterHolder(files.library, dir, 'SIGKILL'),
  };
  const stopped = {
    ours: await afterHolder(files.ours, dir, 'SIGSTOP'),
    library: await afterHolder(files.library, dir, 'SIGSTOP'),
  };
  const reentered = await reentry(dir);
  const wall = (kind: LockKind): number => summarize(busy[kind].wall).median;
  const tables: BenchTable[] = [
    {
      caption: `Lock file: speed (free: medians of ${runs} in this process; contended: ${processes} processes × ${times} increments, median of ${rounds} rounds, whole processes)`,
      columns: [
        'Lock',
        'Acquire + release, free',
        'vs ours',
        'Contended, wall',
        'vs ours',
        'Lost updates',
        'Overlapping holds',
      ],
      rows: kinds.map((kind) => [
        kindNames[kind],
        formatMs(free[kind]),
        formatRatio(free[kind], free.ours),
        formatMs(wall(kind)),
        formatRatio(wall(kind), wall('ours')),
        String(busy[kind].lost),
        String(busy[kind].overlaps),
      ]),
    },
    {
      caption: 'Lock file: what Vigil’s lock tests demand (electron/locks/file-lock.test.ts), run against each',
      columns: ['Scenario', kindNames.ours, kindNames.library],
      rows: [
        ['The holder is killed (SIGKILL); a contender comes', killed.ours, killed.library],
        [
          `The holder is stopped (SIGSTOP) for ${(libraryStaleMs + 1_000) / 1000} s; a contender comes`,
          stopped.ours,
          stopped.library,
        ],
        ['A holder takes the lock again inside its task', reentered.ours, reentered.library],
        [
          'Who holds it, in the busy message',
          'pid, host, purpose, since when',
          'nothing: a directory with no record in it',
        ],
      ],
    },
  ];
  const verdicts = [
    `Lock file: kept. proper-lockfile is ${formatRatio(free.library, free.ours)} as long free and ${formatRatio(wall('library'), wall('ours'))} contended, but speed is not what decides it: its staleness is by mtime only, so a killed holder's lock waits out the stale period (≥ 2 s, 10 s by default) where ours sees the pid is gone, and a live holder that misses its mtime refresh (stopped, or its event loop blocked for longer than the stale period) loses the lock to a second holder; it cannot re-enter and does not say who holds it.`,
  ];
  return { tables, verdicts };
}
