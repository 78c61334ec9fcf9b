import type { ChildProcessByStdio } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { claudeCodeEvents, type RecordedSession } from '../electron/hooks/test-support/recorded-events';
import { defaultRetentionEnv, fillToRetentionLimit } from './default-retention';
import { measureHookChecks } from './hook-checks';
import { hook, measureRelayed, stopBackgroundCore, warmUpCore, type Relayed } from './hook-runs';
import { formatMs, formatRatio, summarize, type BenchArea, type BenchContext, type BenchTable } from './harness';
import { type LoadedFiles, caBundleNote, cli, loadedFiles, startServe, vigilBenchEnv } from './vigil-process';

/**
 * `vigil hook claude-code` as Claude Code runs it — one whole process per event, the recorded event
 * on stdin — on a generated 50,000-file workspace, beside `node -e 0` in the same run: PreToolUse
 * events relayed to a resident core (`vigil serve`), each after a one-file change so that it takes a
 * checkpoint, and a few without a core (a one-shot core walks the tree: correct, not fast).
 */

/** A generated project: 50 files per leaf folder, 10 leaf folders per top folder. */
function generate(dir: string, count: number): string[] {
  const files: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const file = `t${Math.floor(index / 500)}/l${Math.floor(index / 50) % 10}/f${index}.txt`;
    if (index % 50 === 0) mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), `file ${index} `.repeat(1 + (index % 40)));
    files.push(file);
  }
  return files;
}

interface Measured {
  readonly table: BenchTable;
  readonly verdicts: string[];
  readonly imports: LoadedFiles;
}

/** PreToolUse Bash with no core running (a one-shot core per event), after a one-file change; a few runs. */
function measureNoCore(
  session: RecordedSession,
  project: string,
  files: readonly string[],
  runs: number,
  env: NodeJS.ProcessEnv,
): number[] {
  const noCore: number[] = [];
  hook(claudeCodeEvents.sessionStart({ ...session, sessionId: 'bench-no-core' }), env);
  for (let run = 0; run < Math.min(runs, 5); run += 1) {
    appendFileSync(path.join(project, files[run] ?? ''), `one-shot ${run}\n`);
    noCore.push(
      hook(
        claudeCodeEvents.preTool(
          { ...session, sessionId: 'bench-no-core' },
          'Bash',
          { command: `rm -f gone-${run}.txt` },
          `one-shot-${run}`,
        ),
        env,
      ).ms,
    );
  }
  return noCore;
}

/**
 * Issue 31's row: no core runs and none is asked for; the session's first hook event starts the
 * background core by itself, and every later event is relayed to it. Every run is a new turn, so
 * every Write is its turn's first and checkpoints. The core is stopped at the end.
 */
function measureAutoStarted(
  session: RecordedSession,
  project: string,
  files: readonly string[],
  runs: number,
  env: NodeJS.ProcessEnv,
): Relayed {
  const autoEnv = { ...env, VIGIL_NO_CORE: '0' };
  const autoSession = { ...session, sessionId: 'bench-auto-started' };
  try {
    warmUpCore(autoSession, autoEnv);
    return measureRelayed(autoSession, project, files, runs, autoEnv, 1);
  } finally {
    stopBackgroundCore(autoEnv);
  }
}

/**
 * The same at the default retention: a VIGIL_HOME with no config.json, the workspace's timeline first
 * filled to its limit (untimed `vigil checkpoint` calls, the first of which starts the background
 * core), so every timed Write's checkpoint also cuts the oldest, as the CLI's row does.
 */
async function measureAtDefaultRetention(
  base: string,
  session: RecordedSession,
  files: readonly string[],
  runs: number,
  env: NodeJS.ProcessEnv,
): Promise<Relayed & { readonly maxSnapshots: number }> {
  const retentionEnv = defaultRetentionEnv(base, env);
  const retentionSession = { ...session, sessionId: 'bench-default-retention' };
  const project = session.cwd;
  try {
    const maxSnapshots = await fillToRetentionLimit(retentionEnv, project, (run) =>
      appendFileSync(path.join(project, files[(run * 31) % files.length] ?? ''), `fill ${run}\n`),
    );
    warmUpCore(retentionSession, retentionEnv);
    return { ...measureRelayed(retentionSession, project, files, runs, retentionEnv, 1), maxSnapshots };
  } finally {
    stopBackgroundCore(retentionEnv);
  }
}

/** The table's rows: relayed Bash and Write, Write through an auto-started core, and Bash without a core, each beside `node -e 0`. */
function hooksRows(
  label: string,
  relayed: Relayed,
  auto: Relayed,
  atDefault: Relayed & { readonly maxSnapshots: number },
  noCore: readonly number[],
): string[][] {
  const node = `node -e 0: ${formatMs(relayed.node.median)} (p99 ${formatMs(relayed.node.p99)})`;
  const autoRow = (name: string, timing: Relayed): string[] => [
    `${name} (${label})`,
    formatMs(timing.write.median),
    formatMs(timing.write.p99),
    `node -e 0: ${formatMs(timing.node.median)} (p99 ${formatMs(timing.node.p99)})`,
    formatRatio(timing.write.median, timing.node.median),
    'p50 ≤ node -e 0 + 25 ms, p99 ≤ 100 ms',
  ];
  return [
    autoRow("PreToolUse Write, first of its turn (checkpoint), core auto-started by the session's first event", auto),
    autoRow(
      `PreToolUse Write, first of its turn (checkpoint), core auto-started, default retention: the folder at its ${String(atDefault.maxSnapshots)} checkpoints, each cuts the oldest`,
      atDefault,
    ),
    [
      `PreToolUse Bash (checkpoint of a one-change tree), resident core (${label})`,
      formatMs(relayed.bash.median),
      formatMs(relayed.bash.p99),
      node,
      formatRatio(relayed.bash.median, relayed.node.median),
      'p50 ≤ 100 ms, p99 ≤ 300 ms',
    ],
    [
      `PreToolUse Write, first of its turn (checkpoint), resident core (${label})`,
      formatMs(relayed.write.median),
      formatMs(relayed.write.p99),
      node,
      formatRatio(relayed.write.median, relayed.node.median),
      'p50 ≤ 100 ms, p99 ≤ 300 ms',
    ],
    [
      `PreToolUse Bash, no core (one-shot core walks the tree) (${label})`,
      formatMs(summarize(noCore).median),
      formatMs(summarize(noCore).max),
      node,
      formatRatio(summarize(noCore).median, relayed.node.median),
      'correct',
    ],
  ];
}

/** Hook processes without a core, then relayed to a resident one, on one generated tree. */
async function measure(count: number, runs: number, context: BenchContext): Promise<Measured> {
  const base = mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-hooks-'));
  const project = path.join(base, 'project');
  const env = vigilBenchEnv(base);
  let serve: ChildProcessByStdio<null, Readable, null> | undefined;
  try {
    context.log(`generating ${count} files`);
    const files = generate(project, count);
    const session: RecordedSession = {
      sessionId: 'bench-session',
      cwd: project,
      transcriptPath: path.join(base, 'transcript.jsonl'),
    };
    context.log('without a core (a one-shot core per event)');
    const noCore = measureNoCore(session, project, files, runs, env);
    context.log(`PreToolUse through a core the first event started, ${runs} runs`);
    const auto = measureAutoStarted(session, project, files, runs, env);
    context.log(`the same at the default retention, the folder at its limit, ${runs} runs`);
    const atDefault = await measureAtDefaultRetention(base, session, files, runs, env);
    serve = await startServe(env);
    warmUpCore(session, env);
    context.log(`relayed PreToolUse, ${runs} runs`);
    const relayed = measureRelayed(session, project, files, runs, env);
    const imports = loadedFiles(
      ['hook', 'claude-code'],
      env,
      JSON.stringify(claudeCodeEvents.preTool(session, 'Bash', { command: 'rm -f imports.txt' }, 'imports')),
    );
    const label = `${count / 1000}k files`;
    const rows = hooksRows(label, relayed, auto, atDefault, noCore);
    const autoVerdict = (name: string, timing: Relayed): string =>
      `${name}: p50 ${formatMs(timing.write.median)} against node -e 0 ${formatMs(timing.node.median)}, p99 ${formatMs(timing.write.p99)} (targets ≤ node -e 0 + 25 ms, ≤ 100 ms): ${timing.write.median <= timing.node.median + 25 && timing.write.p99 <= 100 ? 'met' : 'NOT met'}.`;
    const verdict = (name: string, timing: { median: number; p99: number }): string =>
      `${name}: p50 ${formatMs(timing.median)}, p99 ${formatMs(timing.p99)} (targets ≤ 100 ms, ≤ 300 ms): ${timing.median <= 100 && timing.p99 <= 300 ? 'met' : 'NOT met'}; node -e 0 alone: p50 ${formatMs(relayed.node.median)}.`;
    return {
      table: {
        caption: `Whole \`vigil hook\` processes on ${label}: ${runs} runs (Write: every 4th), p99 = the slowest 1%`,
        columns: ['Case', 'p50', 'p99 (max without core)', 'Baseline (same run)', 'p50 ratio', 'Target'],
        rows,
      },
      verdicts: [
        verdict('Relayed PreToolUse Bash', relayed.bash),
        verdict('Relayed PreToolUse Write', relayed.write),
        autoVerdict('PreToolUse Write through the auto-started core', auto),
        autoVerdict('The same at the default retention, each checkpoint cutting the oldest', atDefault),
      ],
      imports,
    };
  } finally {
    serve?.kill('SIGTERM');
    if (serve !== undefined && serve.exitCode === null) await new Promise((resolve) => serve?.once('exit', resolve));
    rmSync(base, { recursive: true, force: true });
  }
}

/** The hooks area of `npm run bench`. */
export const run: BenchArea = async (context) => {
  if (!existsSync(cli))
    throw new Error(`${cli} is missing: run "npm run build" first (this bench times the built CLI, as agents run it).`);
  const caNote = caBundleNote(context.isQuick ? 5 : 20);
  const loadBefore = os.loadavg()[0] ?? 0;
  const { table, verdicts, imports } = await measure(
    context.isQuick ? 5_000 : 50_000,
    context.isQuick ? 12 : 100,
    context,
  );
  context.log('the checks of one PreToolUse, in-process');
  const checks = await measureHookChecks(context.isQuick ? 50 : 500);
  const load = `${loadBefore.toFixed(1)} at the start, ${(os.loadavg()[0] ?? 0).toFixed(1)} at the end, on ${os.cpus().length} cores`;
  return {
    title: 'Agent hooks: `vigil hook` per event, whole processes',
    method: [
      'Each row is one whole `node out/main/cli.cjs hook claude-code` (the package bin, as `vigil connect --hooks` configures it) process, as Claude Code runs it, timed from spawn to exit, with a',
      "recorded PreToolUse event (Claude Code's documented stdin format) on stdin; `node -e 0` runs alternately in the same run. Before each",
      "event one file of the workspace changes, so every Bash event and every turn's first Write take a checkpoint of a one-change tree.",
      '"Resident core": `vigil serve` runs on the same VIGIL_HOME (warmed by a first checkpoint); the hook relays its one call over loopback.',
      '"Core auto-started": no core runs and VIGIL_NO_CORE is off; the session\'s first event starts the background core (`vigil core run`, detached) and every later event is relayed to it; every run is a new turn, so every Write checkpoints.',
      "\"Default retention\": the same, in a VIGIL_HOME with no config.json (the other rows' raises checkpoints.maxSnapshots to 10,000 to keep cuts out of them), after untimed `vigil checkpoint` calls up to the limit and one past it (the first starts the background core), so every timed Write's checkpoint also cuts the workspace's oldest.",
      `The relayed path loads ${imports.files} files (${imports.kib.toFixed(0)} KiB of JavaScript)${imports.heavy.length === 0 ? ', none of zod, ws, isomorphic-git, chokidar, diff, yaml, the MCP SDK or the core.' : `, including ${imports.heavy.join(', ')}.`}`,
      `The machine is shared with other engineers' builds and tests (load average ${load}); Node's own start-up is most of each`,
      'process and grows with the load: `node -e 0` is the yardstick.',
      ...(caNote === ''
        ? []
        : [
            `${caNote} Hooks as \`vigil connect\` writes them on Unix start that way too (\`NODE_EXTRA_CA_CERTS= node …\`), whatever the agent passes on.`,
          ]),
    ].join('\n'),
    tables: [table, checks],
    verdicts,
  };
};
