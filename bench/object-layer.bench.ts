import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatMs, summarize, type BenchArea, type BenchContext, type Timing } from './harness';
import {
  fileContent,
  fsckProblems,
  gcStoreByGit,
  git,
  listObjects,
  looseStoreByGit,
  projectFiles,
  writeProject,
  type ProjectFile,
} from './object-layer-inputs';
import {
  checkReads,
  isoReadAll,
  isoReadHead,
  vigilReadAll,
  vigilReadHead,
  type ReadResult,
  type ReadTally,
} from './object-layer-reads';
import { isoPackLoose, isoWriteLoose, vigilPackLoose, vigilWriteLoose, vigilWritePacks } from './object-layer-writes';

/**
 * Vigil's own git object layer against isomorphic-git's (issue 16, item 6), on the same inputs in
 * the same run: writing blobs and trees, reading a pack that `git gc` deltified, and building a
 * pack plus index from loose objects. Every result is checked (same ids as git's CLI, `git fsck`
 * clean on what each wrote), and the runs alternate which layer goes first.
 */

/** The decision threshold of the issue: isomorphic-git replaces Vigil's code only within this factor. */
const adoptWithin = 1.3;

/** What one timed body took: wall time, and the process's CPU time (every thread, user + system), in ms. */
interface Sample {
  readonly wall: number;
  readonly cpu: number;
}

/** One side of a comparison: a run sets up (untimed), times its body, and checks the result (untimed). */
interface Contender {
  readonly name: string;
  once(run: number): Promise<Sample>;
}

/**
 * Times `body` alone. CPU time is kept beside wall time: on a machine shared with other work,
 * waiting for a core inflates wall time but not the work done.
 */
async function timed(body: () => Promise<unknown>): Promise<Sample> {
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  await body();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

/** The 1-minute load average at the start of every timed run: how busy the shared machine was. */
const loads: number[] = [];

/** Runs every contender `runs` times, rotating who goes first; the samples per contender, in run order. */
async function race(
  runs: number,
  contenders: readonly Contender[],
  context: BenchContext,
  label: string,
): Promise<Sample[][]> {
  const samples = contenders.map((): Sample[] => []);
  for (let run = 0; run < runs; run += 1) {
    for (let step = 0; step < contenders.length; step += 1) {
      const at = (run + step) % contenders.length;
      // Each run starts with nothing left to write back: the previous one's files and deletions would slow whoever comes next.
      execFileSync('sync');
      loads.push(os.loadavg()[0] ?? 0);
      samples[at]?.push(await (contenders[at] as Contender).once(run));
    }
    context.log(
      `${label} run ${run + 1}: ${contenders.map((contender, index) => `${contender.name} ${formatMs(samples[index]?.at(-1)?.wall ?? 0)} (CPU ${formatMs(samples[index]?.at(-1)?.cpu ?? 0)})`).join(', ')}`,
    );
  }
  return samples;
}

/** A result row: both layers' medians with their spread, and isomorphic-git's ratio (median, and per-run range). */
interface Row {
  readonly operation: string;
  readonly vigil: Timing;
  readonly iso: Timing;
  readonly ratio: number;
  /** isomorphic-git's CPU time over Vigil's (medians). */
  readonly cpuRatio: number;
  readonly pairedRange: readonly [number, number];
  readonly vigilCpu: number;
  readonly isoCpu: number;
  readonly checked: string;
}

function row(operation: string, vigilSamples: readonly Sample[], isoSamples: readonly Sample[], checked: string): Row {
  const paired = isoSamples.map((sample, index) => sample.wall / (vigilSamples[index]?.wall ?? Number.NaN));
  const vigil = summarize(vigilSamples.map((sample) => sample.wall));
  const iso = summarize(isoSamples.map((sample) => sample.wall));
  const cpu = (samples: readonly Sample[]): number => summarize(samples.map((sample) => sample.cpu)).median;
  const vigilCpu = cpu(vigilSamples);
  const isoCpu = cpu(isoSamples);
  return {
    operation,
    vigil,
    iso,
    ratio: iso.median / vigil.median,
    cpuRatio: isoCpu / vigilCpu,
    pairedRange: [Math.min(...paired), Math.max(...paired)],
    vigilCpu,
    isoCpu,
    checked,
  };
}

/**
 * The issue's rule for one operation: isomorphic-git takes it over only within 1.3× of Vigil in
 * every form measured, in wall time and in CPU time alike. Both count: wall time is what a user
 * waits for on a quiet machine; on a busy one it also counts waiting for cores and disks that
 * other processes hold, the same wait for both layers, which pulls the ratio towards 1, while
 * CPU time still counts only the work each layer does.
 */
function verdict(operation: string, rows: readonly Row[]): string {
  const worst = Math.max(...rows.flatMap((result) => [result.ratio, result.cpuRatio]));
  const ratios = rows
    .map((result) => `${result.ratio.toFixed(2)}× wall, ${result.cpuRatio.toFixed(2)}× CPU`)
    .join('; ');
  return `isomorphic-git within ${adoptWithin}× of Vigil at ${operation} (${ratios}): ${worst <= adoptWithin ? 'yes' : 'no — Vigil keeps its own'}`;
}

const spread = (timing: Timing): string =>
  `${formatMs(timing.median)} (${formatMs(timing.min)}–${formatMs(timing.max)})`;

function fail(message: string): never {
  throw new Error(`object-layer bench: ${message}`);
}

/** Case 1: the project's blobs and trees into empty stores; each must give git's root tree, hold git's objects and pass fsck. */
async function benchWrites(
  base: string,
  files: readonly ProjectFile[],
  expected: { tree: string; objects: string[] },
  runs: number,
  context: BenchContext,
): Promise<Row[]> {
  const contents = files.map((_, index) => fileContent(index, 0));
  const contender = (name: string, write: typeof vigilWriteLoose): Contender => ({
    name,
    async once(run) {
      const gitdir = path.join(base, `write-${name}-${run}`);
      git(['init', '--quiet', '--bare', gitdir]);
      let root = '';
      const sample = await timed(async () => (root = await write(gitdir, files, contents)));
      if (root !== expected.tree) fail(`${name} wrote root tree ${root}, git wrote ${expected.tree}`);
      if (run === 0) {
        if (listObjects(gitdir).join('\n') !== expected.objects.join('\n'))
          fail(`${name} did not write exactly git's objects`);
        const problems = fsckProblems(gitdir);
        if (problems.length > 0) fail(`git fsck on ${name}'s store: ${problems.join('; ')}`);
      }
      rmSync(gitdir, { recursive: true, force: true });
      return sample;
    },
  });
  const [loose, packs, iso] = await race(
    runs,
    [
      contender('vigil-loose', vigilWriteLoose),
      contender('vigil-packs', vigilWritePacks),
      contender('iso', isoWriteLoose),
    ],
    context,
    'write',
  );
  const trees = expected.objects.filter((line) => line.endsWith(' tree')).length;
  const what = `${files.length.toLocaleString('en')} blobs + ${trees} trees`;
  const checked = "root tree = `git write-tree`'s; same objects as git; `git fsck` clean";
  return [
    row(
      `write ${what}, loose objects (\`writeLoose\` vs \`writeBlob\`/\`writeTree\`)`,
      loose ?? [],
      iso ?? [],
      checked,
    ),
    row(
      `write ${what}: Vigil as a big snapshot does (2 packs) vs isomorphic-git loose`,
      packs ?? [],
      iso ?? [],
      checked,
    ),
  ];
}

/** Moves a finished pack and its index out of the store (so the next run starts without it); returns the new folder. */
function takePack(gitdir: string, name: string, into: string): string {
  mkdirSync(into, { recursive: true });
  for (const extension of ['.pack', '.idx'])
    renameSync(path.join(gitdir, 'objects/pack', `${name}${extension}`), path.join(into, `pack${extension}`));
  return into;
}

/** Case 3: a pack and its index from the loose store; both packs must hold the store's objects and pass fsck. */
async function benchPacking(
  base: string,
  source: string,
  runs: number,
  context: BenchContext,
): Promise<{ row: Row; isIdentical: boolean }> {
  const objects = listObjects(source);
  const byType = (type: string): string[] =>
    objects.filter((line) => line.endsWith(` ${type}`)).map((line) => line.slice(0, 40));
  // git's own order of writing: trees before blobs.
  const oids = [...byType('tree'), ...byType('blob')];
  const contender = (name: string, pack: typeof vigilPackLoose): Contender => ({
    name,
    async once(run) {
      let packName = '';
      const sample = await timed(async () => (packName = await pack(source, oids)));
      takePack(source, packName, path.join(base, `pack-${name}-${run}`));
      return sample;
    },
  });
  const [vigil, iso] = await race(
    runs,
    [contender('vigil', vigilPackLoose), contender('iso', isoPackLoose)],
    context,
    'pack',
  );
  for (const name of ['vigil', 'iso']) {
    const check = path.join(base, `pack-check-${name}`);
    git(['init', '--quiet', '--bare', check]);
    for (const extension of ['.pack', '.idx'])
      copyFileSync(
        path.join(base, `pack-${name}-0`, `pack${extension}`),
        path.join(check, 'objects/pack', `pack-x${extension}`),
      );
    git(['verify-pack', path.join(check, 'objects/pack/pack-x.idx')]);
    if (listObjects(check).join('\n') !== objects.join('\n'))
      fail(`${name}'s pack does not hold exactly the loose objects`);
    const problems = fsckProblems(check);
    if (problems.length > 0) fail(`git fsck on ${name}'s pack: ${problems.join('; ')}`);
  }
  const same = (extension: string): boolean =>
    readFileSync(path.join(base, 'pack-vigil-0', `pack${extension}`)).equals(
      readFileSync(path.join(base, 'pack-iso-0', `pack${extension}`)),
    );
  const isIdentical = same('.pack') && same('.idx');
  const checked = `same objects as the loose store; \`git verify-pack\` and \`git fsck\` clean${isIdentical ? '; pack and index byte-identical' : ''}`;
  return {
    row: row(
      `build a pack + index from ${oids.length.toLocaleString('en')} loose objects (level-6 \`PackWriter\` vs \`packObjects\` + \`indexPack\`)`,
      vigil ?? [],
      iso ?? [],
      checked,
    ),
    isIdentical,
  };
}

/** Case 2: reads from the pack `git gc` wrote; afterwards every object read must hash back to its id, and the counts be git's. */
async function benchReads(gitdir: string, head: string, runs: number, context: BenchContext): Promise<Row[]> {
  const objects = listObjects(gitdir).map((line) => ({ oid: line.slice(0, 40), type: line.slice(41) }));
  const headEntries = git(['--git-dir', gitdir, 'ls-tree', '-r', '-t', head])
    .split('\n')
    .filter((line) => line !== '');
  const count = (type: string): number => objects.filter((object) => object.type === type).length;
  const expectAll = { trees: count('tree'), blobs: count('blob'), commits: count('commit'), mismatches: 0 };
  const headCount = (type: string): number => headEntries.filter((line) => line.includes(` ${type} `)).length;
  const expectHead = { trees: headCount('tree') + 1, blobs: headCount('blob'), commits: 1, mismatches: 0 };
  const contender = (name: string, read: () => Promise<ReadResult[]>, expected: ReadTally): Contender => ({
    name,
    async once() {
      let results: ReadResult[] = [];
      const sample = await timed(async () => (results = await read()));
      const tally = checkReads(results);
      if (JSON.stringify(tally) !== JSON.stringify(expected))
        fail(`${name} read ${JSON.stringify(tally)}, expected ${JSON.stringify(expected)}`);
      return sample;
    },
  });
  const [allVigil, allIso] = await race(
    runs,
    [
      contender('vigil', () => vigilReadAll(gitdir, objects), expectAll),
      contender('iso', () => isoReadAll(gitdir, objects), expectAll),
    ],
    context,
    'read all',
  );
  const [headVigil, headIso] = await race(
    runs,
    [
      contender('vigil', () => vigilReadHead(gitdir, head), expectHead),
      contender('iso', () => isoReadHead(gitdir, head), expectHead),
    ],
    context,
    'read head',
  );
  const checked = "every object hashes back to its id; counts = git's";
  return [
    row(
      `read every object of the pack (${objects.length.toLocaleString('en')}), in id order (\`readTyped\` vs \`readBlob\`/\`readTree\`/\`readCommit\`)`,
      allVigil ?? [],
      allIso ?? [],
      checked,
    ),
    row(
      `read the newest commit's whole tree (${expectHead.trees} trees, ${expectHead.blobs.toLocaleString('en')} blobs), depth first`,
      headVigil ?? [],
      headIso ?? [],
      checked,
    ),
  ];
}

/** `npm run bench -- object-layer`. */
export const run: BenchArea = async (context) => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-objects-'));
  loads.length = 0;
  try {
    const count = context.isQuick ? 1_000 : 10_000;
    const runs = context.isQuick ? 2 : 5;
    const rounds = context.isQuick ? 5 : 20;
    const files = projectFiles(count);
    const work = path.join(base, 'work');
    writeProject(work, files, 0);
    context.log(`generated ${count} files; git writes the reference store`);
    const reference = path.join(base, 'reference');
    const { tree } = looseStoreByGit(reference, work);
    const writes = await benchWrites(base, files, { tree, objects: listObjects(reference) }, runs, context);
    const packing = await benchPacking(base, reference, runs, context);
    context.log(`git gc on a history of ${rounds} rounds`);
    const gcStore = path.join(base, 'gc');
    const { head, shape } = gcStoreByGit(gcStore, work, files, rounds, 100);
    const fsck = fsckProblems(gcStore);
    if (fsck.length > 0) fail(`git fsck on git gc's store: ${fsck.join('; ')}`);
    if (readdirSync(path.join(gcStore, 'objects')).some((name) => /^[0-9a-f]{2}$/.test(name)))
      fail('git gc left loose objects');
    const reads = await benchReads(gcStore, head, runs, context);
    const rows = [...writes, ...reads, packing.row];
    const load = summarize(loads);
    return {
      title: "Object layer: Vigil's own vs isomorphic-git",
      method: [
        `Issue 16 item 6. The same inputs for both layers, in the same run: a generated project of ${count.toLocaleString('en')} source-like files`,
        '(100 B – 4 KiB, 50 per folder, 10 folders per top folder). Vigil runs through its real classes (`ObjectStore`, `PackWriter`,',
        '`git-objects`); isomorphic-git 1.44.11 through its documented API on `node:fs` with one shared `cache` per pass where the call takes one',
        '(its typed readers, which its docs advise over `readObject` when the type is known; both layers hand trees back as entries).',
        'Loose writes keep 16 objects in flight for both; reads go one object at a time for both, and are checked after the clock stops. The pack to read is written by',
        `\`git gc\` over ${rounds} commits that each edit one line in 100 files: ${shape.objects.toLocaleString('en')} objects, ${shape.deltas.toLocaleString('en')} of them deltas,`,
        `chains up to ${shape.maxDepth} deep. The loose store to pack is written by \`git add\` + \`git write-tree\`. Medians of ${runs} runs (min–max);`,
        'the runs rotate which layer goes first, each after a `sync`. "iso / Vigil" is the ratio of wall-time medians, with the per-run ratios in brackets;',
        'CPU time (user + system, all threads of the process) is shown beside it, as it suffers less from a busy machine:',
        `the 1-minute load average at the start of the runs was ${load.median.toFixed(1)} (${load.min.toFixed(1)}–${load.max.toFixed(1)}) on ${os.cpus().length} cores.`,
        `isomorphic-git takes an operation over only within ${adoptWithin}× of Vigil in both wall time and CPU time (a busy machine pulls wall-time ratios towards 1).`,
        'Vigil fsyncs every pack it finishes and writes loose objects by temp + rename at zlib level 1; isomorphic-git writes in',
        'place at zlib level 6 and fsyncs nothing, so its writes do less for durability than the times alone suggest.',
      ].join('\n'),
      tables: [
        {
          caption: `Vigil vs isomorphic-git, medians of ${runs} runs (min–max)`,
          columns: [
            'Operation',
            'Vigil',
            'isomorphic-git',
            'iso / Vigil',
            'CPU time: Vigil, iso (iso / Vigil)',
            'Checked',
          ],
          rows: rows.map((result) => [
            result.operation,
            spread(result.vigil),
            spread(result.iso),
            `${result.ratio.toFixed(2)}× (${result.pairedRange[0].toFixed(2)}–${result.pairedRange[1].toFixed(2)})`,
            `${formatMs(result.vigilCpu)}, ${formatMs(result.isoCpu)} (${result.cpuRatio.toFixed(2)}×)`,
            result.checked,
          ]),
        },
      ],
      verdicts: [
        verdict('writing blobs and trees', writes),
        verdict('reading a pack `git gc` deltified', reads),
        verdict('building a pack and its index', [packing.row]),
      ],
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
};
