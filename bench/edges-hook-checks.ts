import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigFile } from '../electron/config';
import { type PlanContext, planFileCall, planShellCall } from '../electron/executor';
import { silentLogger } from '../electron/logging';
import { PolicyEngine } from '../electron/policy';
import { formatMs, formatRatio, summarize, type BenchTable } from './harness';
import { performance } from 'node:perf_hooks';

/** Runs each body once (warm-up), then once per round in turn, so load on the shared machine falls on all of them alike. */
export async function interleaved(
  runs: number,
  bodies: Readonly<Record<string, () => Promise<unknown>>>,
): Promise<Record<string, number[]>> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(bodies).map((name) => [name, []]));
  for (const body of Object.values(bodies)) await body();
  for (let round = 0; round < runs; round += 1) {
    for (const [name, body] of Object.entries(bodies)) {
      const start = performance.now();
      await body();
      samples[name]?.push(performance.now() - start);
    }
  }
  return samples;
}

/**
 * The hooks' share of issue 30's edges, in-process on the core's side: a Write and a Bash append
 * planned for a file with one link (the hard-link check runs and finds nothing) and for a file
 * hard-linked to a file outside the workspace (it asks, naming the file); the check's own `lstat`
 * alone. Baseline: the plain file's plan, in the same run.
 */
export async function measureEdgeHookChecks(base: string, runs: number): Promise<BenchTable> {
  const project = path.join(base, 'hook-project');
  const store = path.join(base, 'hook-store');
  mkdirSync(path.join(project, 'src'), { recursive: true });
  mkdirSync(store, { recursive: true });
  writeFileSync(path.join(project, 'src', 'plain.ts'), 'export const a = 1;\n');
  writeFileSync(path.join(store, 'linked.ts'), 'export const b = 2;\n');
  linkSync(path.join(store, 'linked.ts'), path.join(project, 'src', 'linked.ts'));
  const config = path.join(base, 'hook-config.json');
  writeFileSync(config, '{}');
  const context: PlanContext = {
    roots: [project],
    cwd: project,
    facts: { home: path.join(base, 'home'), knownDirectories: () => Promise.resolve([]) },
    vigilHome: path.join(base, 'vigil-home'),
    policy: new PolicyEngine({ config: new ConfigFile(config), logger: silentLogger }),
    limits: { maxFileBytes: 10 * 1024 * 1024 },
  };
  const write = (name: string) => {
    const file = path.join(project, 'src', name);
    return () => planFileCall({ kind: 'file', name: 'Write', path: file, input: { file_path: file } }, context);
  };
  const append = (name: string) => () =>
    planShellCall({ kind: 'shell', name: 'Bash', command: `echo x >> src/${name}`, input: {} }, context);
  const samples = await interleaved(runs, {
    writePlain: write('plain.ts'),
    writeLinked: write('linked.ts'),
    bashPlain: append('plain.ts'),
    bashLinked: append('linked.ts'),
    lstat: () => lstat(path.join(project, 'src', 'linked.ts')),
  });
  const timing = (name: string) => summarize(samples[name] ?? []);
  const row = (label: string, name: string, baselineLabel: string, baseline: string): string[] => [
    label,
    formatMs(timing(name).median),
    formatMs(timing(name).p99),
    name === baseline ? 'the baseline' : `${baselineLabel}: ${formatMs(timing(baseline).median)}`,
    name === baseline ? '1.00×' : formatRatio(timing(name).median, timing(baseline).median),
  ];
  return {
    caption: `A hook's PreToolUse planned in the core, in-process: ${runs} interleaved runs each (medians)`,
    columns: ['Case', 'p50', 'p99', 'Baseline (same run)', 'Ratio'],
    rows: [
      row('Write of a file with one link (the check runs, finds nothing)', 'writePlain', '', 'writePlain'),
      row(
        'Write of a file hard-linked outside (asks, naming it)',
        'writeLinked',
        'Write of a plain file',
        'writePlain',
      ),
      row('Bash `echo x >> src/plain.ts` (the check runs, finds nothing)', 'bashPlain', '', 'bashPlain'),
      row('Bash `echo x >> src/linked.ts` (asks, naming it)', 'bashLinked', 'the same on a plain file', 'bashPlain'),
      row('the check itself: one lstat', 'lstat', 'Write of a plain file', 'writePlain'),
    ],
  };
}
