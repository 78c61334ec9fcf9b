import { spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { claudeCodeEvents, type RecordedSession } from '../electron/hooks/test-support/recorded-events';
import { formatMs, formatRatio, summarize, type BenchContext, type BenchTable } from './harness';
import { exitCpuReport, type ProcessSample } from './process-sample';
import { loadedFiles, root, startServe, vigilBenchEnv } from './vigil-process';

/** What the chunk-plan comparison found: its table and the decision it supports. */
export interface ChunkComparison {
  readonly tables: readonly BenchTable[];
  readonly verdicts: readonly string[];
}

type Variant = 'on' | 'off';
const variants: readonly Variant[] = ['on', 'off'];

/** Builds the main bundle with the chunk plan or without it into `outDir`, as `npm run build` would (bench/chunk-plan.config.ts). */
function buildVariant(variant: Variant, outDir: string): void {
  const result = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'),
      'build',
      '-c',
      'bench/chunk-plan.config.ts',
      '--logLevel',
      'error',
    ],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, VIGIL_BENCH_OUT_DIR: outDir, VIGIL_BENCH_CHUNK_PLAN: variant },
    },
  );
  if (result.status !== 0) throw new Error(`the ${variant} build failed: ${result.stderr}`);
}

const cpuReport = `data:text/javascript,${encodeURIComponent(exitCpuReport)}`;

/** One whole `vigil ARGS` process with `input` on stdin: its wall time and the CPU time it reported. */
function vigil(cli: string, args: readonly string[], env: NodeJS.ProcessEnv, input: string): ProcessSample {
  const start = performance.now();
  const run = spawnSync(process.execPath, ['--import', cpuReport, cli, ...args], { env, input, encoding: 'utf8' });
  const wall = performance.now() - start;
  const cpu = /CPU (\d+)/.exec(run.stderr);
  if (run.status !== 0 || cpu === null)
    throw new Error(`vigil ${args.join(' ')} failed (${String(run.status)}): ${run.stderr}`);
  return { wall, cpu: Number(cpu[1]) / 1000 };
}

interface Case {
  readonly label: string;
  readonly args: readonly string[];
  readonly input: string;
}

/** The main bundle with the chunk plan and without it: files, and the two one-shot processes the plan is for. */
export async function compareChunkPlan(context: BenchContext, base: string): Promise<ChunkComparison> {
  const runs = context.isQuick ? 3 : 20;
  const clis = {} as Record<Variant, string>;
  const chunkFiles = {} as Record<Variant, number>;
  for (const variant of variants) {
    // Inside the checkout (out/ is ignored): the build leaves its packages external, found in node_modules from there.
    const outDir = path.join(root, 'out', `bench-chunk-plan-${variant}`, 'main');
    context.log(`chunk plan ${variant}: building`);
    buildVariant(variant, outDir);
    clis[variant] = path.join(outDir, 'cli.js');
    chunkFiles[variant] = (await readdir(path.join(outDir, 'chunks'))).length;
  }
  const project = path.join(base, 'chunks-project');
  await mkdir(project, { recursive: true });
  const env = vigilBenchEnv(path.join(base, 'chunks'));
  const session: RecordedSession = {
    sessionId: 'bench-chunks',
    cwd: project,
    transcriptPath: path.join(base, 't.jsonl'),
  };
  const cases: Case[] = [
    { label: '`vigil --version`', args: ['--version'], input: '' },
    {
      label: '`vigil hook claude-code`, PreToolUse Bash, relayed to a resident core',
      args: ['hook', 'claude-code'],
      input: JSON.stringify(claudeCodeEvents.preTool(session, 'Bash', { command: 'ls -la' }, 'chunks')),
    },
  ];
  let serve: ChildProcessByStdio<null, Readable, null> | undefined;
  try {
    serve = await startServe(env, clis.on);
    vigil(clis.on, ['hook', 'claude-code'], env, JSON.stringify(claudeCodeEvents.sessionStart(session)));
    const samples = new Map<string, { wall: number[]; cpu: number[] }>();
    context.log(`chunk plan: ${runs} runs of each process, alternating`);
    for (let run = 0; run < runs; run += 1)
      for (const item of cases)
        for (const variant of variants) {
          const key = `${item.label}|${variant}`;
          const sample = vigil(clis[variant], item.args, env, item.input);
          const list = samples.get(key) ?? { wall: [], cpu: [] };
          list.wall.push(sample.wall);
          list.cpu.push(sample.cpu);
          samples.set(key, list);
        }
    const median = (label: string, variant: Variant, kind: 'wall' | 'cpu'): number =>
      summarize(samples.get(`${label}|${variant}`)?.[kind] ?? []).median;
    const rows = cases.flatMap((item) =>
      variants.map((variant) => {
        const loaded = loadedFiles(item.args, env, item.input, clis[variant]);
        return [
          `${item.label}, plan ${variant}`,
          `${loaded.files} (${loaded.kib.toFixed(0)} KiB)`,
          formatMs(median(item.label, variant, 'wall')),
          formatMs(median(item.label, variant, 'cpu')),
          formatRatio(median(item.label, variant, 'cpu'), median(item.label, 'on', 'cpu')),
        ];
      }),
    );
    const hook = cases[1]?.label ?? '';
    const saved = median(hook, 'off', 'cpu') - median(hook, 'on', 'cpu');
    return {
      tables: [
        {
          caption: `Chunk plan (scripts/build/chunk-plan.ts) on and off: the main bundle built both ways in this run (${chunkFiles.on} chunk files with it, ${chunkFiles.off} without); whole processes, medians of ${runs}, alternating`,
          columns: ['Process', 'Files loaded', 'Wall', 'CPU', 'CPU vs plan on'],
          rows,
        },
      ],
      verdicts: [
        `Chunk plan: ${saved > 0 ? 'kept' : 'no gain measured'}. Without it a relayed hook process costs ${formatMs(saved)} more CPU (${formatRatio(median(hook, 'off', 'cpu'), median(hook, 'on', 'cpu'))}); there is no library to replace it with, only the bundler's own splitting (the "off" rows).`,
      ],
    };
  } finally {
    serve?.kill('SIGKILL');
    for (const variant of variants)
      await rm(path.join(root, 'out', `bench-chunk-plan-${variant}`), { recursive: true, force: true });
  }
}
