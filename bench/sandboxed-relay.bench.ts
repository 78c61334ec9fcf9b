import { execFileSync, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { formatMs, summarize, type BenchArea, type BenchContext } from './harness';
import { gitEnv } from './git-env';
import { cli, startServe, vigilBenchEnv } from './vigil-process';

/**
 * Issue 31, item 2: what a sandboxed `true` costs through a core that holds a large tree, against a
 * relayed `read_file` in the same run, and with no core at all. Whole `vigil tool …` processes,
 * alternating run by run. The core runs agent commands through its spawn server (a small process
 * it started at its own start), so the fork of bubblewrap, `which` and `rg` does not copy the core.
 */

/** Wall time of one whole process, in milliseconds. */
function timed(args: readonly string[], env: NodeJS.ProcessEnv): number {
  const start = performance.now();
  execFileSync(process.execPath, args, { env, stdio: 'ignore' });
  return performance.now() - start;
}

/** A project of `count` small files, 50 per folder, a git repository at its root. */
function generate(dir: string, count: number): void {
  for (let index = 0; index < count; index += 1) {
    const file = path.join(dir, `t${Math.floor(index / 500)}`, `l${Math.floor(index / 50) % 10}`, `f${index}.txt`);
    if (index % 50 === 0) mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `file ${index}\n`.repeat(1 + (index % 20)));
  }
  execFileSync('git', ['init', '-q', dir], { env: gitEnv });
}

/** Resident memory of a process, in MiB (Linux). */
function rssMiB(pid: number | undefined): number {
  if (pid === undefined || process.platform !== 'linux') return Number.NaN;
  const match = /VmRSS:\s+(\d+) kB/u.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match === null ? Number.NaN : Number(match[1]) / 1024;
}

/** The core's spawn server: its child running spawn-server.js. */
function spawnServerPid(corePid: number | undefined): number | undefined {
  if (corePid === undefined || process.platform !== 'linux') return undefined;
  const children = readdirSync(`/proc/${corePid}/task`).flatMap((task) =>
    readFileSync(`/proc/${corePid}/task/${task}/children`, 'utf8').trim().split(/\s+/u).filter(Boolean).map(Number),
  );
  return children.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('spawn-server'));
}

function alternate(runs: number, measures: readonly (() => number)[]): number[][] {
  const samples = measures.map((): number[] => []);
  for (let run = 0; run < runs; run += 1) measures.forEach((measure, index) => samples[index]?.push(measure()));
  return samples;
}

const load = (): string => (os.loadavg()[0] ?? 0).toFixed(1);

async function measure(context: BenchContext, count: number, folders: number, runs: number) {
  const base = mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-sbx-relay-'));
  const env = vigilBenchEnv(base);
  const dirs = Array.from({ length: folders }, (_unused, index) => path.join(base, `project${index}`));
  const [dir = ''] = dirs;
  let serve: ChildProcessByStdio<null, Readable, null> | undefined;
  try {
    for (const each of dirs) {
      context.log(`generating ${count} files in ${path.basename(each)}`);
      generate(each, count);
    }
    const terminal = ['tool', 'terminal', '--args', JSON.stringify({ command: 'true' }), '--cwd', dir];
    const readFile = ['tool', 'read_file', '--args', JSON.stringify({ path: 't0/l0/f0.txt' }), '--cwd', dir];
    serve = await startServe(env);
    context.log(`the core takes its first snapshot of each of ${folders} trees (it then watches them all)`);
    for (const each of dirs) timed([cli, 'checkpoint', each], env);
    timed([cli, ...terminal], env);
    timed([cli, ...readFile], env);
    const loadBefore = load();
    context.log('relayed sandboxed true vs relayed read_file');
    const [relayedTerminal = [], relayedRead = []] = alternate(runs, [
      () => timed([cli, ...terminal], env),
      () => timed([cli, ...readFile], env),
    ]);
    const coreRss = rssMiB(serve.pid);
    const serverRss = rssMiB(spawnServerPid(serve.pid));
    serve.kill('SIGTERM');
    await new Promise((resolve) => serve?.once('exit', resolve));
    serve = undefined;
    context.log('sandboxed true with no core');
    const local = { ...env, VIGIL_NO_CORE: '1' };
    timed([cli, ...terminal], local);
    const [noCore = [], node = []] = alternate(runs, [
      () => timed([cli, ...terminal], local),
      () => timed(['-e', '0'], local),
    ]);
    const differences = relayedTerminal.map((value, index) => value - (relayedRead[index] ?? Number.NaN));
    return {
      terminal: summarize(relayedTerminal).median,
      read: summarize(relayedRead).median,
      difference: summarize(differences).median,
      noCore: summarize(noCore).median,
      node: summarize(node).median,
      coreRss,
      serverRss,
      loads: `${loadBefore} before, ${load()} after`,
    };
  } finally {
    serve?.kill('SIGTERM');
    if (serve !== undefined && serve.exitCode === null) await new Promise((resolve) => serve?.once('exit', resolve));
    rmSync(base, { recursive: true, force: true });
  }
}

/** The relayed-sandbox area of `npm run bench`. */
export const run: BenchArea = async (context) => {
  if (!existsSync(cli))
    throw new Error(`${cli} is missing: run "npm run build" first (this bench times the built CLI).`);
  const count = context.isQuick ? 5_000 : 50_000;
  const folders = context.isQuick ? 1 : 4;
  const runs = context.isQuick ? 5 : 15;
  const m = await measure(context, count, folders, runs);
  const label = `${count / 1000}k files`;
  const held = folders === 1 ? `one ${label} tree` : `${folders} trees of ${label} each`;
  return {
    title: 'Sandboxed commands through a core that holds a large tree',
    method: [
      `Whole \`node out/main/cli.js tool …\` processes on a ${label} project (a git repository), ${runs} runs of each, alternating run by run; medians.`,
      `Relayed: \`vigil serve\` runs on the same VIGIL_HOME, holds ${held} and has taken its first snapshot of each (resident memory at the end: core ${m.coreRss.toFixed(0)} MiB, its spawn server ${m.serverRss.toFixed(0)} MiB).`,
      "The terminal call is `true` in the OS sandbox: the profile (the roots' protected paths, from the scan cache), the engine's wrap, bubblewrap and the command, all forked by the spawn server;",
      'the difference is taken run by run against a relayed `read_file` of one small file. No core: no server runs and VIGIL_NO_CORE=1; the process builds a one-shot core, starts the sandbox engine while the call is logged and checked, checks the tree against the look the previous process kept in VIGIL_HOME/sandbox-scans (one `lstat` per folder; the first process lists it with one `find`) and forks the sandbox itself (a one-shot process is small).',
      `Load average (1 min) ${m.loads}, on ${os.cpus().length} cores shared with other engineers' builds and tests.`,
    ].join('\n'),
    tables: [
      {
        caption: `Medians of ${runs} alternating runs, ${label}, the core holding ${held}`,
        columns: ['Case', 'Median', 'Target'],
        rows: [
          ['Relayed sandboxed `true`', formatMs(m.terminal), ''],
          ['Relayed `read_file`', formatMs(m.read), ''],
          ['Relayed sandboxed `true` − relayed `read_file` (run by run)', formatMs(m.difference), '≤ 30 ms'],
          ['Sandboxed `true`, no core (VIGIL_NO_CORE=1)', formatMs(m.noCore), '≤ 250 ms'],
          ['`node -e 0` (same run)', formatMs(m.node), ''],
        ],
      },
    ],
    verdicts: [
      `Relayed sandboxed true − read_file: ${formatMs(m.difference)} (target ≤ 30 ms): ${m.difference <= 30 ? 'met' : 'NOT met'}.`,
      `No core: ${formatMs(m.noCore)} (target ≤ 250 ms): ${m.noCore <= 250 ? 'met' : 'NOT met'}.`,
    ],
  };
};
