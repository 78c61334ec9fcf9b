import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { mapLimit, writeFileAtomic, writeFilesAtomic } from '../electron/files';
import { formatBytes } from '../shared/text/format-bytes';
import { formatMs, summarize, type BenchArea, type BenchContext, type BenchTable } from './harness';

/** One way of writing a file. */
type Writer = (target: string, content: Buffer) => Promise<unknown>;

/** A plain write followed by an fsync of the file: what durability alone costs, without temp + rename. */
async function writeFileDurable(target: string, content: Buffer): Promise<void> {
  const handle = await open(target, 'w');
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const singleWays: readonly (readonly [string, Writer])[] = [
  ['atomic', writeFileAtomic],
  ['plain', writeFile],
  ['durable', writeFileDurable],
];

function perSecond(count: number, ms: number): string {
  const rate = (count * 1000) / ms;
  return `${rate >= 100 ? rate.toFixed(0) : rate.toFixed(1)} /s`;
}

/** Median milliseconds per write for each way, the ways interleaved run by run so that noise hits them alike. */
async function singleFile(base: string, bytes: number, writes: number, runs: number): Promise<Record<string, number>> {
  const content = Buffer.alloc(bytes, 0x61);
  const target = path.join(base, `single-${bytes}.bin`);
  await writeFile(target, content);
  const samples: Record<string, number[]> = { atomic: [], plain: [], durable: [] };
  for (let run = 0; run < runs; run += 1) {
    for (const [name, write] of singleWays) {
      const start = performance.now();
      for (let index = 0; index < writes; index += 1) await write(target, content);
      samples[name]?.push((performance.now() - start) / writes);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, summarize(values).median]));
}

/** Ways of writing many small files into fresh directories. */
const batchWays: readonly (readonly [string, (targets: readonly string[], content: Buffer) => Promise<unknown>])[] = [
  [
    'writeFilesAtomic (batch, 16 in flight)',
    (targets, content) => writeFilesAtomic(targets.map((target) => ({ target, content }))),
  ],
  [
    'writeFileAtomic, 16 at a time',
    (targets, content) => mapLimit(targets, 16, (target) => writeFileAtomic(target, content)),
  ],
  [
    'writeFileAtomic, one after another',
    async (targets, content) => {
      for (const target of targets) await writeFileAtomic(target, content);
    },
  ],
  [
    'fs.writeFile, 16 at a time (not durable)',
    (targets, content) =>
      mapLimit(targets, 16, async (target) => {
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, content);
      }),
  ],
];

async function manyFiles(base: string, files: number, runs: number, context: BenchContext): Promise<string[][]> {
  const content = Buffer.alloc(1024, 0x62);
  const samples = batchWays.map(() => [] as number[]);
  for (let run = 0; run < runs; run += 1) {
    for (const [index, [, write]] of batchWays.entries()) {
      const dir = path.join(base, `batch-${run}-${index}`);
      const targets = Array.from({ length: files }, (_, file) => path.join(dir, `d${file % 10}`, `f${file}.txt`));
      const start = performance.now();
      await write(targets, content);
      samples[index]?.push(performance.now() - start);
      await rm(dir, { recursive: true, force: true });
    }
  }
  const medians = samples.map((values) => summarize(values).median);
  const plain = medians[medians.length - 1] ?? 1;
  return batchWays.map(([name], index) => {
    const ms = medians[index] ?? 0;
    context.log(`${files} files, ${name}: ${formatMs(ms)}`);
    return [name, formatMs(ms), perSecond(files, ms), `${(ms / plain).toFixed(1)}×`];
  });
}

/** Peak resident memory growth while streaming `bytes` into an atomic write, in bytes. */
async function streamedMemory(base: string, bytes: number): Promise<{ readonly ms: number; readonly growth: number }> {
  const chunk = Buffer.alloc(64 * 1024, 0x63);
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (let sent = 0; sent < bytes; sent += chunk.length) {
      await Promise.resolve();
      yield chunk;
    }
  }
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const start = performance.now();
  await writeFileAtomic(path.join(base, 'streamed.bin'), chunks());
  const ms = performance.now() - start;
  clearInterval(sampler);
  return { ms, growth: Math.max(0, Math.max(peak, process.memoryUsage().rss) - before) };
}

/** Atomic writes per second for 1 KiB, 1 MiB and 100 MiB against fs.writeFile in the same run, and the batch form. */
export const run: BenchArea = async (context) => {
  const base = await mkdtemp(path.join(os.tmpdir(), 'vigil-bench-atomic-'));
  try {
    const sizes = context.isQuick
      ? [
          { bytes: 1024, writes: 10, runs: 2 },
          { bytes: 1024 * 1024, writes: 2, runs: 2 },
        ]
      : [
          { bytes: 1024, writes: 200, runs: 7 },
          { bytes: 1024 * 1024, writes: 20, runs: 7 },
          { bytes: 100 * 1024 * 1024, writes: 1, runs: 5 },
        ];
    const rows: string[][] = [];
    const ratios: string[] = [];
    for (const size of sizes) {
      const ms = await singleFile(base, size.bytes, size.writes, size.runs);
      const atomic = ms['atomic'] ?? 0;
      const plain = ms['plain'] ?? 1;
      const durable = ms['durable'] ?? 1;
      context.log(
        `${formatBytes(size.bytes)}: atomic ${formatMs(atomic)}, fs.writeFile ${formatMs(plain)}, write+fsync ${formatMs(durable)}`,
      );
      rows.push([
        formatBytes(size.bytes),
        `${perSecond(1, atomic)} (${formatMs(atomic)})`,
        `${perSecond(1, plain)} (${formatMs(plain)})`,
        `${(plain / atomic).toFixed(2)}×`,
        `${perSecond(1, durable)} (${formatMs(durable)})`,
        `${(durable / atomic).toFixed(2)}×`,
      ]);
      ratios.push(
        `${formatBytes(size.bytes)}: ${(plain / atomic).toFixed(2)}× the throughput of fs.writeFile, ${(durable / atomic).toFixed(2)}× that of write+fsync`,
      );
    }
    const files = context.isQuick ? 100 : 1000;
    const batchRows = await manyFiles(base, files, context.isQuick ? 1 : 5, context);
    const streamed = await streamedMemory(base, context.isQuick ? 16 * 1024 * 1024 : 100 * 1024 * 1024);
    const single: BenchTable = {
      caption: 'One file overwritten repeatedly (median time per write)',
      columns: [
        'Size',
        'Vigil writeFileAtomic',
        'fs.writeFile',
        'Atomic ÷ fs.writeFile (throughput)',
        'fs.writeFile + fsync',
        'Atomic ÷ write+fsync',
      ],
      rows,
    };
    const batch: BenchTable = {
      caption: `${files} files of 1 KiB into 10 new directories (median of the whole batch)`,
      columns: ['How', 'Time', 'Files/s', 'Time ÷ fs.writeFile'],
      rows: batchRows,
    };
    return {
      title: 'Atomic writes',
      method: [
        `Writes to ${os.tmpdir()} (a real disk here, not tmpfs). Vigil's writer creates a hidden temp file beside the target, writes it,`,
        'fsyncs it, renames it over the target and fsyncs the directory; fs.writeFile truncates and writes in place without any fsync, so',
        'it is fast and neither atomic nor durable. "fs.writeFile + fsync" is durable but not atomic: it shows how much of the cost is',
        'the fsync itself. The three ways are interleaved run by run; medians over 7 runs (5 for 100 MiB and the batches). The machine',
        "is shared with other engineers' builds and tests, so absolute numbers are noisy; the ratios in one run are the figure to read.",
      ].join('\n'),
      tables: [single, batch],
      verdicts: [
        ...ratios.map((line) => `Atomic write, ${line}.`),
        `Streaming ${formatBytes(context.isQuick ? 16 * 1024 * 1024 : 100 * 1024 * 1024)} from a generator took ${formatMs(streamed.ms)} and grew resident memory by at most ${formatBytes(streamed.growth)} (content is never held whole).`,
      ],
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
};
