import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  type CheckpointService,
  type HistoryService,
  loadCheckpointService,
  loadHistoryService,
} from '../electron/checkpoints';
import { dirHash } from '../electron/git-store';
import { silentLogger } from '../electron/logging';
import { formatMs, formatRatio, summarize, type BenchArea, type BenchContext } from './harness';

const { CheckpointService: CheckpointEngine } = await loadCheckpointService();
const { createHistoryService } = await loadHistoryService();

/**
 * A file's history (`vigil checkpoints log`) and the search of the past (`vigil checkpoints
 * search`, what `git log -S` answers) on a long timeline of a big tree, side by side with git's
 * own `git log -- FILE` and `git log -S TEXT` on the very same store and ref, in the same run.
 */

const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

/** The file whose history is asked for, and the text searched for. */
const watched = 't3/l4/f1720.txt';
const needle = 'NEEDLE-7f3a';

interface Built {
  readonly base: string;
  readonly dir: string;
  readonly root: string;
  readonly files: number;
  readonly checkpoints: number;
}

function content(index: number, version: number, withNeedle: boolean): string {
  const line = `file ${index} version ${version} `;
  const body = `${line.repeat(Math.ceil((40 + ((index * 7919) % 400)) / line.length))}\n`;
  return withNeedle ? `${body}// ${needle}\n` : body;
}

/**
 * A tree of `fileCount` files (50 per folder) checkpointed `checkpointCount` times by a one-shot
 * engine; between checkpoints 1–3 files change (the watched one every 20th time, the needle going
 * into or out of a file every 25th), as turns of two alternating sessions would change them.
 */
async function build(fileCount: number, checkpointCount: number, context: BenchContext): Promise<Built> {
  const base = mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-history-'));
  const dir = path.join(base, 'project');
  const root = path.join(base, 'home', 'checkpoints');
  const files: string[] = [];
  for (let index = 0; index < fileCount; index += 1) {
    const file = `t${Math.floor(index / 500)}/l${Math.floor(index / 50) % 10}/f${index}.txt`;
    files.push(file);
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content(index, 0, false));
  }
  const engine = new CheckpointEngine({ root, logger: silentLogger, retention: { maxSnapshots: checkpointCount * 2 } });
  try {
    for (let round = 0; round < checkpointCount; round += 1) {
      const changed = new Set<string>();
      if (round > 0) {
        for (let pick = 0; pick < 1 + (round % 3); pick += 1)
          changed.add(files[(round * 7_919 + pick * 104_729) % files.length] ?? '');
        if (round % 20 === 0) changed.add(watched);
        for (const file of changed) {
          const index = files.indexOf(file);
          writeFileSync(path.join(dir, file), content(index, round, round % 25 === 0 && (round / 25) % 2 === 1));
        }
      }
      const session = round % 2 === 0 ? 'session-a' : 'session-b';
      const outcome = await engine.checkpoint(dir, {
        reason: 'before write_file',
        attribution: { sessionId: session, turn: Math.floor(round / 2) + 1, agent: session },
        ...(round === 0 ? {} : { paths: [...changed].map((file) => path.join(dir, file)), onlyPaths: true }),
      });
      if (outcome.kind !== 'created') throw new Error(`checkpoint ${round} was not taken`);
      if (round % 200 === 0) context.log(`built ${round + 1}/${checkpointCount} checkpoints`);
    }
    // Pack the store, as the resident core's maintenance does (retention keeps every checkpoint here).
    await engine.prune();
  } finally {
    await engine.dispose();
  }
  return { base, dir, root, files: fileCount, checkpoints: checkpointCount };
}

/** `git log --format=%H OPTIONS REF [-- FILE]` on the engine's store: commit ids, newest first. */
function gitLog(built: Built, options: readonly string[], file?: string): string[] {
  const gitdir = path.join(built.root, 'store');
  const args = [
    '--git-dir',
    gitdir,
    'log',
    '--format=%H',
    ...options,
    `refs/vigil/${dirHash(built.dir)}`,
    ...(file === undefined ? [] : ['--', file]),
  ];
  const out = execFileSync('git', args, { env: gitEnv, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim();
  return out === '' ? [] : out.split('\n');
}

function historyOf(engine: CheckpointService, root: string): HistoryService {
  return createHistoryService({ engine, root, rules: { maxFileBytes: engine.maxFileBytes, ignoredFolders: [root] } });
}

/** Times `body` `runs` times (alternating with `baseline`, so machine noise hits both alike); medians in ms. */
async function alternate(
  runs: number,
  body: () => Promise<unknown>,
  baseline: () => unknown,
): Promise<{ vigil: number; git: number }> {
  const vigil: number[] = [];
  const git: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    let start = performance.now();
    baseline();
    git.push(performance.now() - start);
    start = performance.now();
    await body();
    vigil.push(performance.now() - start);
  }
  return { vigil: summarize(vigil).median, git: summarize(git).median };
}

/** One timed comparison: the Vigil call and its git baseline, with their table labels. */
type HistoryCase = readonly [name: string, baseline: string, body: () => Promise<unknown>, git: () => unknown];

/** What git answers, fetched before anything is timed: the watched file's log and the needle's search. */
interface Expected {
  readonly log: readonly string[];
  readonly search: readonly string[];
}

/** Checks that Vigil gives git's answers (git lists the root commit too, which has no older side). */
async function checkAgainstGit(
  history: HistoryService,
  built: Built,
  expected: Expected,
  context: BenchContext,
): Promise<void> {
  const log = await history.fileLog(built.dir, watched, { includeLive: false });
  const search = await history.search(built.dir, needle, { includeLive: false, limit: 10_000 });
  if (log.entries.length !== expected.log.length - 1)
    throw new Error(`file log: ${log.entries.length} entries, git ${expected.log.length - 1}`);
  // git names a commit once however many of its files the text moved in.
  const commits = [...new Set(search.hits.map((hit) => hit.nextCheckpoint))];
  if (commits.join() !== expected.search.join())
    throw new Error(`search: ${commits.length} commits, git ${expected.search.length}`);
  context.log(`file log: ${log.entries.length} versions; search: ${search.hits.length} changes (both as git answers)`);
}

/** The file-log comparisons: warm, with the live file, and cold. */
function fileLogCases(built: Built, history: HistoryService): HistoryCase[] {
  return [
    [
      'file log, warm (resident core)',
      'git log -- FILE',
      () => history.fileLog(built.dir, watched, { includeLive: false }),
      () => gitLog(built, [], watched),
    ],
    [
      'file log, with the live file',
      'git log -- FILE',
      () => history.fileLog(built.dir, watched),
      () => gitLog(built, [], watched),
    ],
    [
      'file log, cold (one-shot engine opened for it)',
      'git log -- FILE',
      async () => {
        const fresh = new CheckpointEngine({ root: built.root, logger: silentLogger });
        try {
          await historyOf(fresh, built.root).fileLog(built.dir, watched, { includeLive: false });
        } finally {
          await fresh.dispose();
        }
      },
      () => gitLog(built, [], watched),
    ],
  ];
}

/** The search comparisons: warm, with the live directory, and cold. */
function searchCases(built: Built, history: HistoryService): HistoryCase[] {
  return [
    [
      'search, warm (resident core)',
      'git log -S TEXT',
      () => history.search(built.dir, needle, { includeLive: false, limit: 10_000 }),
      () => gitLog(built, ['-S', needle]),
    ],
    [
      'search, with the live directory',
      'git log -S TEXT',
      () => history.search(built.dir, needle, { limit: 10_000 }),
      () => gitLog(built, ['-S', needle]),
    ],
    [
      'search, cold (one-shot engine opened for it)',
      'git log -S TEXT',
      async () => {
        const fresh = new CheckpointEngine({ root: built.root, logger: silentLogger });
        try {
          await historyOf(fresh, built.root).search(built.dir, needle, { includeLive: false, limit: 10_000 });
        } finally {
          await fresh.dispose();
        }
      },
      () => gitLog(built, ['-S', needle]),
    ],
  ];
}

/** The history rows: warm (the resident core: the app, `vigil serve`) and cold (a one-shot engine opened for the call). */
async function measure(built: Built, runs: number, context: BenchContext): Promise<string[][]> {
  const rows: string[][] = [];
  const label = `${built.files / 1000}k files, ${built.checkpoints} checkpoints`;
  const expected: Expected = { log: gitLog(built, [], watched), search: gitLog(built, ['-S', needle]) };
  const engine = new CheckpointEngine({
    root: built.root,
    logger: silentLogger,
    retention: { maxSnapshots: built.checkpoints * 2 },
  });
  try {
    const history = historyOf(engine, built.root);
    // Same answers as git before anything is timed.
    await checkAgainstGit(history, built, expected, context);
    const cases = [...fileLogCases(built, history), ...searchCases(built, history)];
    for (const [name, baseline, body, git] of cases) {
      context.log(`${label}: ${name}`);
      const result = await alternate(runs, body, git);
      const row = [
        label,
        name,
        formatMs(result.vigil),
        baseline,
        formatMs(result.git),
        formatRatio(result.vigil, result.git),
      ];
      context.log(row.join(' | '));
      rows.push(row);
    }
  } finally {
    await engine.dispose();
  }
  return rows;
}

/** File history and search of the past (issue 14, items 4 and 5). */
export const run: BenchArea = async (context) => {
  const built = await build(context.isQuick ? 2_000 : 10_000, context.isQuick ? 100 : 1_000, context);
  try {
    const rows = await measure(built, context.isQuick ? 2 : 7, context);
    const warm = rows.find((row) => row[1] === 'file log, warm (resident core)');
    const cold = rows.find((row) => row[1] === 'file log, cold (one-shot engine opened for it)');
    const verdict = (row: string[] | undefined): string => {
      const ms =
        Number.parseFloat(row?.[2] ?? 'NaN') *
        (row?.[2]?.endsWith(' s') === true ? 1000 : row?.[2]?.endsWith('µs') === true ? 0.001 : 1);
      return `${row?.[1] ?? ''}: ${row?.[2] ?? '?'} (target ≤ 300 ms: ${ms <= 300 ? 'met' : 'NOT met'})`;
    };
    return {
      title: 'File history and search',
      method: [
        `A generated tree of ${built.files.toLocaleString('en-US')} files (50 per folder) is checkpointed ${built.checkpoints.toLocaleString('en-US')} times by Vigil's engine, 1–3 files`,
        `changing between checkpoints as turns of two sessions would (the watched file every 20th time, a marker text going into or out of a file`,
        'every 25th), then the store is packed. Each Vigil call is checked to give exactly git\'s answer first. "file log" is',
        '`vigil checkpoints log DIR FILE` (every checkpoint after which FILE changed) against `git log --format=%H REF -- FILE`; "search" is',
        '`vigil checkpoints search DIR TEXT` against `git log -S TEXT --format=%H REF`, on the same store and ref. "warm" is the resident',
        'core (the app, `vigil serve`: the timeline\'s commits are parsed once and kept); "cold" opens a fresh engine for the call, as a',
        'one-shot `vigil --local` does (process start not included); "with the live" rows also compare the newest checkpoint with the',
        "directory now, which git does not do. Vigil and git alternate run by run on a machine shared with other engineers' work.",
      ].join(' '),
      tables: [
        {
          caption: 'File history and search (medians; ratio = Vigil ÷ git)',
          columns: ['Timeline', 'Vigil call', 'Vigil', 'git baseline', 'git', 'Ratio'],
          rows,
        },
      ],
      verdicts: [verdict(warm), verdict(cold)],
    };
  } finally {
    rmSync(built.base, { recursive: true, force: true, maxRetries: 5 });
  }
};
