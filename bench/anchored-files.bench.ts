import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { anchorFile, openHeldEntry, withHeldFolder, writeAnchoredFile, writeFileAtomic } from '../electron/files';
import { formatMs, summarize, type BenchArea } from './harness';

/** One way of doing the same file operation; `prepare` is what a tool's prepare does, `run` what its run does. */
interface Way {
  readonly name: string;
  readonly note: string;
  readonly operation: (target: string, content: Buffer) => Promise<unknown>;
}

/** A read through the held folder, as read_file does it: hold, open without following links, read, close. */
async function readAnchored(target: string): Promise<Buffer> {
  const file = await anchorFile(target);
  return withHeldFolder(file, { create: false }, async ({ folder }) => {
    const opened = await openHeldEntry(folder, path.basename(target));
    try {
      return await opened.handle.readFile();
    } finally {
      await opened.handle.close();
    }
  });
}

const writes: readonly Way[] = [
  {
    name: 'writeFileAtomic (by path; the baseline)',
    note: 'temp + fsync + rename + dir fsync',
    operation: (target, content) => writeFileAtomic(target, content),
  },
  {
    name: 'anchorFile + writeAnchoredFile (a file tool)',
    note: 'the same, with the folder anchored, held by descriptor and checked before and after the rename',
    operation: async (target, content) => writeAnchoredFile(await anchorFile(target), content),
  },
];

const reads: readonly Way[] = [
  { name: 'fs.readFile (by path; the baseline)', note: 'follows any symlink', operation: (target) => readFile(target) },
  {
    name: 'anchored read (read_file)',
    note: 'anchor, hold, open with O_NOFOLLOW in the held folder, check, read',
    operation: (target) => readAnchored(target),
  },
];

/** Median ms per operation for each way, interleaved run by run so that noise hits them alike. */
async function compare(
  ways: readonly Way[],
  target: string,
  content: Buffer,
  count: number,
  runs: number,
): Promise<number[]> {
  const samples = ways.map(() => [] as number[]);
  for (let run = 0; run < runs; run += 1) {
    for (const [index, way] of ways.entries()) {
      const start = performance.now();
      for (let call = 0; call < count; call += 1) await way.operation(target, content);
      samples[index]?.push((performance.now() - start) / count);
    }
  }
  return samples.map((values) => summarize(values).median);
}

/** What holding the folder costs a file tool, against the path-based writer and a plain read, in the same run. */
export const run: BenchArea = async (context) => {
  const base = await mkdtemp(path.join(os.tmpdir(), 'vigil-bench-anchored-'));
  try {
    const target = path.join(base, 'ws', 'sub', 'file.txt');
    await mkdir(path.dirname(target), { recursive: true });
    const content = Buffer.alloc(1024, 0x61);
    await writeFile(target, content);
    const count = context.isQuick ? 10 : 200;
    const runs = context.isQuick ? 2 : 7;
    const table = async (
      caption: string,
      ways: readonly Way[],
    ): Promise<{ rows: string[][]; ratio: number; extra: number }> => {
      const medians = await compare(ways, target, content, count, runs);
      const baseline = medians[0] ?? 1;
      context.log(`${caption}: ${medians.map((ms) => formatMs(ms)).join(' vs ')}`);
      return {
        rows: ways.map((way, index) => [
          way.name,
          formatMs(medians[index] ?? 0),
          `${((medians[index] ?? 0) / baseline).toFixed(2)}×`,
          way.note,
        ]),
        ratio: (medians[1] ?? 0) / baseline,
        extra: (medians[1] ?? 0) - baseline,
      };
    };
    const written = await table('1 KiB write', writes);
    const read = await table('1 KiB read', reads);
    return {
      title: 'File tools: the folder held, not re-resolved',
      method: [
        `A 1 KiB file in ${os.tmpdir()}, ${count} operations per run, ${runs} runs, the ways interleaved run by run; medians of the`,
        "time per operation. The file tools resolve a path once (prepare: anchorFile records the folder's identity) and then work",
        'only inside that folder (run: held by an O_NOFOLLOW descriptor reached through /proc/self/fd on Linux, checked before and',
        'after the rename), so a symlink swapped in meanwhile cannot redirect them. The baseline is the path-based writer, and a plain',
        "fs.readFile, in the same run. The machine is shared with other engineers' work: read the ratios, not the absolute times.",
      ].join('\n'),
      tables: [
        {
          caption: 'One 1 KiB file written (median per write)',
          columns: ['How', 'Time', '÷ baseline', 'What it does'],
          rows: written.rows,
        },
        {
          caption: 'One 1 KiB file read (median per read)',
          columns: ['How', 'Time', '÷ baseline', 'What it does'],
          rows: read.rows,
        },
      ],
      verdicts: [
        `A file tool's write takes ${written.ratio.toFixed(2)}× the path-based writer's time (${formatMs(Math.abs(written.extra))} ${written.extra >= 0 ? 'more' : 'less'} per write; the fsyncs dominate both).`,
        `A file tool's read takes ${read.ratio.toFixed(2)}× a plain fs.readFile (${formatMs(read.extra)} more: about ten more system calls, each a trip through libuv's thread pool).`,
      ],
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
};
