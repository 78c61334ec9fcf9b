import { spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { claudeCodeEvents, type RecordedSession } from '../electron/hooks/test-support/recorded-events';
import { measureHookChecks } from './hook-checks';
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

/** One whole hook process, from spawn to exit, with the event on stdin; fails loudly on a wrong answer. */
function hook(event: object, env: NodeJS.ProcessEnv): { readonly ms: number; readonly stdout: string } {
  const start = performance.now();
  const run = spawnSync(process.execPath, [cli, 'hook', 'claude-code'], {
    env,
    input: JSON.stringify(event),
    encoding: 'utf8',
  });
  const ms = performance.now() - start;
  if (run.status !== 0 || run.stderr !== '')
    throw new Error(`vigil hook failed (${String(run.status)}): ${run.stderr}`);
  return { ms, stdout: run.stdout };
}

function nodeStart(env: NodeJS.ProcessEnv): number {
  const start = performance.now();
  spawnSync(process.execPath, ['-e', '0'], { env });
  return performance.now() - start;
}

interface Measured {
  readonly table: BenchTable;
  readonly verdicts: string[];
  readonly imports: LoadedFiles;
}

/** PreToolUse (Bash, and the turn's first Write) after a one-file change, alternating with `node -e 0`. */
function measureRelayed(
  session: RecordedSession,
  project: string,
  files: readonly string[],
  runs: number,
  env: NodeJS.ProcessEnv,
  writeEvery = 4,
) {
  const bash: number[] = [];
  const write: number[] = [];
  const node: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    appendFileSync(path.join(project, files[(run * 7919) % files.length] ?? ''), `change ${run}\n`);
    node.push(nodeStart(env));
    const before = hook(
      claudeCodeEvents.preTool(session, 'Bash', { command: `rm -f ${files[run] ?? ''}` }, `bash-${run}`),
      env,
    );
    if (before.stdout !== '') throw new Error(`unexpected answer to a Bash rm inside the workspace: ${before.stdout}`);
    bash.push(before.ms);
    if (run % writeEvery === 0) {
      // A new turn, so the Write is its first change there and checkpoints.
      hook(claudeCodeEvents.prompt(session, `turn ${run}`), env);
      appendFileSync(path.join(project, files[(run * 104_729) % files.length] ?? ''), `edit ${run}\n`);
      write.push(
        hook(
          claudeCodeEvents.preTool(
            session,
            'Write',
            { file_path: path.join(project, `new-${run}.txt`), content: 'x\n' },
            `write-${run}`,
          ),
          env,
        ).ms,
      );
    }
  }
  return { bash: summarize(bash), write: summarize(write), node: summarize(node) };
}

/** Medians and p99s of the relayed runs: Bash, Write and bare node start-up. */
type Relayed = ReturnType<typeof measureRelayed>;

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
  let relayed: Relayed | undefined;
  try {
    warmUpCore(autoSession, autoEnv);
    relayed = measureRelayed(autoSession, project, files, runs, autoEnv, 1);
  } finally {
    spawnSync(process.execPath, [cli, 'core', 'stop'], { env: autoEnv });
  }
  const status = spawnSync(process.execPath, [cli, 'core', 'status', '--json'], { env: autoEnv, encoding: 'utf8' });
  if (!status.stdout.includes('"state":"none"')) throw new Error(`the background core did not stop: ${status.stdout}`);
  return relayed;
}

/** Starts the session on the resident core and lets it take its first checkpoint. */
function warmUpCore(session: RecordedSession, env: NodeJS.ProcessEnv): void {
  hook(claudeCodeEvents.sessionStart(session), env);
  hook(claudeCodeEvents.prompt(session, 'warm up'), env);
  // The core's first checkpoint of the tree walks it and starts its watcher; after that it follows changes.
  hook(claudeCodeEvents.preTool(session, 'Bash', { command: 'rm -f warm-up.txt' }, 'warm-up'), env);
}

/** The table's rows: relayed Bash and Write, Write through an auto-started core, and Bash without a core, each beside `node -e 0`. */
function hooksRows(label: string, relayed: Relayed, auto: Relayed, noCore: readonly number[]): string[][] {
  const node = `node -e 0: ${formatMs(relayed.node.median)} (p99 ${formatMs(relayed.node.p99)})`;
  return [
    [
      `PreToolUse Write, first of its turn (checkpoint), core auto-started by the session's first event (${label})`,
      formatMs(auto.write.median),
      formatMs(auto.write.p99),
      `node -e 0: ${formatMs(auto.node.median)} (p99 ${formatMs(auto.node.p99)})`,
      formatRatio(auto.write.median, auto.node.median),
      'p50 ≤ node -e 0 + 25 ms, p99 ≤ 100 ms',
    ],
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
    const rows = hooksRows(label, relayed, auto, noCore);
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
        `PreToolUse Write through the auto-started core: p50 ${formatMs(auto.write.median)} against node -e 0 ${formatMs(auto.node.median)}, p99 ${formatMs(auto.write.p99)} (targets ≤ node -e 0 + 25 ms, ≤ 100 ms): ${auto.write.median <= auto.node.median + 25 && auto.write.p99 <= 100 ? 'met' : 'NOT met'}.`,
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
