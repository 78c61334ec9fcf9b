import { performance } from 'node:perf_hooks';

/** One benchmark area's report: a title, an explanation, and Markdown tables. */
export interface BenchSection {
  readonly title: string;
  /** What was measured and how; shown above the tables. */
  readonly method: string;
  readonly tables: readonly BenchTable[];
  /** Targets and whether they were met, one line each. */
  readonly verdicts?: readonly string[];
}

/** A Markdown table. */
export interface BenchTable {
  readonly caption: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** What `npm run bench` passes to each area. */
export interface BenchContext {
  /** Fewer runs and smaller inputs (`npm run bench -- --quick`), for checking that a bench still works. */
  readonly isQuick: boolean;
  /** Progress lines, printed as they come. */
  log(line: string): void;
}

/** An area module (`bench/<area>.bench.ts`) exports this. */
export type BenchArea = (context: BenchContext) => Promise<BenchSection>;

/** Timing statistics of several runs, in milliseconds. */
export interface Timing {
  readonly runs: number;
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly p99: number;
}

/** Statistics of a list of samples (milliseconds). */
export function summarize(samples: readonly number[]): Timing {
  if (samples.length === 0) throw new Error('no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const middle = sorted.length / 2;
  const median =
    sorted.length % 2 === 1
      ? (sorted[Math.floor(middle)] ?? Number.NaN)
      : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  return {
    runs: sorted.length,
    median,
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
    p99: at(0.99),
  };
}

/**
 * Runs `body` `runs` times (after `setup` each time, untimed) and returns the statistics.
 * `setup` returns the value `body` works on.
 */
export async function measure<T>(
  runs: number,
  setup: (run: number) => Promise<T> | T,
  body: (value: T, run: number) => unknown,
): Promise<Timing> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const value = await setup(run);
    const start = performance.now();
    await body(value, run);
    samples.push(performance.now() - start);
  }
  return summarize(samples);
}

/** Formats milliseconds for a table: µs below 1 ms, ms below 10 s, else seconds. */
export function formatMs(ms: number): string {
  if (ms < 1) return `${(ms * 1000).toFixed(0)} µs`;
  if (ms < 10_000) return `${ms < 100 ? ms.toFixed(1) : ms.toFixed(0)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Formats a ratio against a baseline, such as `0.12×`. */
export function formatRatio(value: number, baseline: number): string {
  return `${(value / baseline).toFixed(2)}×`;
}

/** Renders a section as Markdown. */
export function renderSection(section: BenchSection): string {
  const parts = [`## ${section.title}`, '', section.method, ''];
  for (const table of section.tables) {
    parts.push(`**${table.caption}**`, '');
    parts.push(`| ${table.columns.join(' | ')} |`, `| ${table.columns.map(() => '---').join(' | ')} |`);
    for (const row of table.rows) parts.push(`| ${row.join(' | ')} |`);
    parts.push('');
  }
  if (section.verdicts !== undefined && section.verdicts.length > 0) {
    parts.push('**Targets**', '', ...section.verdicts.map((line) => `- ${line}`), '');
  }
  return parts.join('\n');
}
