import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { silentLogger } from '../electron/logging';
import {
  CommandSandbox,
  defaultSandboxSettings,
  objectFolders,
  privateObjects,
  RootScanCache,
  runTerminalCommand,
} from '../electron/sandbox';
import { interleaved } from './edges-hook-checks';
import { formatMs, formatRatio, summarize, type BenchTable } from './harness';

/**
 * A local `git clone` in the workspace (issue 30, H4, git's form): its loose objects and packs are
 * hard links to the source repository's, so the first sandboxed command replaces each with a
 * private copy. Rows: that first command (the copies), a later command in the same clone (the
 * object folders looked at again through the scan cache), a repository with as many objects and
 * no links, and the alternative for the pack: two files kept read-only by a mount each. Git's own
 * `git clone --no-hardlinks` and `git clone` of the same source are the reference for the copy.
 */
const gitEnv: NodeJS.ProcessEnv = {
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: '/nonexistent',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
};

function git(args: readonly string[]): void {
  execFileSync('git', args, { env: gitEnv, stdio: 'ignore' });
}

/** A source repository: one pack of a `packMb` MiB file, then `loose` loose objects. */
function sourceRepository(folder: string, loose: number, packMb: number): void {
  git(['init', '-q', '-b', 'main', folder]);
  const big = Buffer.alloc(packMb * 1024 * 1024);
  for (let offset = 0; offset < big.length; offset += 4) big.writeUInt32LE((offset * 2654435761) >>> 0, offset);
  writeFileSync(path.join(folder, 'big.bin'), big);
  git(['-C', folder, 'add', '-A']);
  git(['-C', folder, 'commit', '-qm', 'packed']);
  git(['-C', folder, 'repack', '-a', '-d', '-q']);
  // Each file is one blob; the tree and the commit make two more.
  mkdirSync(path.join(folder, 'src'));
  for (let index = 0; index < loose - 2; index += 1)
    writeFileSync(path.join(folder, 'src', `f${index}.txt`), `file ${index}\n`);
  git(['-C', folder, 'add', '-A']);
  git(['-C', folder, 'commit', '-qm', 'loose']);
}

/** Sandboxed `echo ok` in `root`, as the terminal tool runs it. */
async function echo(sandbox: CommandSandbox, root: string): Promise<void> {
  const prepared = await sandbox.prepare({ command: 'echo ok', cwd: root, roots: [root], sessionId: 'ses_clone' });
  try {
    await runTerminalCommand({
      command: 'echo ok',
      cwd: root,
      timeoutMs: 300_000,
      outputCapBytes: 1 << 20,
      env: prepared.env,
      launch: { file: prepared.file, args: prepared.args },
    });
  } finally {
    await prepared.ended();
  }
}

/** The workspaces measured: an empty one, a linked clone, an unlinked one, and two files hard-linked outside. */
function layout(base: string, source: string): Record<'small' | 'clone' | 'plain' | 'mounts', string> {
  const folders = {
    small: path.join(base, 'clone-small'),
    clone: path.join(base, 'clone-ws'),
    plain: path.join(base, 'clone-plain'),
    mounts: path.join(base, 'clone-mounts'),
  };
  mkdirSync(folders.small, { recursive: true });
  git(['clone', '-q', source, path.join(folders.clone, 'repo')]);
  git(['clone', '-q', '--no-hardlinks', source, path.join(folders.plain, 'repo')]);
  // The pack's alternative: its two files kept read-only, one mount each (as two files linked outside are).
  mkdirSync(path.join(folders.mounts, 'kept'), { recursive: true });
  for (const name of ['a.pack', 'a.idx']) {
    writeFileSync(path.join(base, `outside-${name}`), name);
    linkSync(path.join(base, `outside-${name}`), path.join(folders.mounts, 'kept', name));
  }
  return folders;
}

/** The first command in each of `count` fresh clones (git's clone made before the clock starts), and git's own clones for reference. */
async function firstCommands(
  sandbox: CommandSandbox,
  base: string,
  source: string,
  count: number,
): Promise<Record<string, number[]>> {
  let fresh = 0;
  const next = (): string => path.join(base, `clone-fresh-${(fresh += 1)}`);
  const first: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const root = next();
    git(['clone', '-q', source, path.join(root, 'repo')]);
    const start = performance.now();
    await echo(sandbox, root);
    first.push(performance.now() - start);
  }
  const clones = await interleaved(count, {
    linked: () => {
      git(['clone', '-q', source, next()]);
      return Promise.resolve();
    },
    copied: () => {
      git(['clone', '-q', '--no-hardlinks', source, next()]);
      return Promise.resolve();
    },
  });
  return { first, ...clones };
}

function packMiB(source: string): string {
  const packs = path.join(source, '.git', 'objects', 'pack');
  const bytes = readdirSync(packs).reduce((sum, name) => sum + statSync(path.join(packs, name)).size, 0);
  return (bytes / 1024 / 1024).toFixed(0);
}

/** The git-clone table of the edges area: `loose` loose objects and a `packMb` MiB file's pack, `runs` interleaved runs. */
export async function measureGitClone(base: string, runs: number, loose: number, packMb: number): Promise<BenchTable> {
  const source = path.join(base, 'clone-source');
  sourceRepository(source, loose, packMb);
  const folders = layout(base, source);
  const sandbox = new CommandSandbox({
    vigilHome: path.join(base, 'clone-vigil'),
    home: path.join(base, 'clone-home'),
    settings: () => Promise.resolve(defaultSandboxSettings),
    logger: silentLogger,
    tempRoot: path.join(base, 'clone-tmp'),
  });
  try {
    const status = await sandbox.status();
    if (status.kind !== 'ready') throw new Error(`the sandbox cannot start here: ${status.reason}`);
    const firstRuns = Math.max(3, Math.floor(runs / 3));
    const once = await firstCommands(sandbox, base, source, firstRuns);
    const scans = new RootScanCache();
    const objects = await objectFolders([path.join(folders.clone, 'repo', '.git')], [folders.clone]);
    const samples = await interleaved(runs, {
      objects: () => privateObjects(objects, [], scans),
      small: () => echo(sandbox, folders.small),
      clone: () => echo(sandbox, folders.clone),
      plain: () => echo(sandbox, folders.plain),
      mounts: () => echo(sandbox, folders.mounts),
    });
    const t = (name: string) => summarize(samples[name] ?? once[name] ?? []);
    const baseline = t('small').median;
    const row = (label: string, name: string): string[] => [
      label,
      formatMs(t(name).median),
      formatMs(t(name).p99),
      `small workspace: ${formatMs(baseline)}`,
      formatRatio(t(name).median, baseline),
    ];
    const what = `${loose} loose objects and a ${packMiB(source)} MiB pack`;
    return {
      caption: `A local git clone in the workspace (${what}): sandboxed \`echo ok\`, ${runs} interleaved runs each (medians; first commands and clones: ${firstRuns} each)`,
      columns: ['Case', 'p50', 'p99', 'Baseline (same run)', 'Ratio'],
      rows: [
        row('small workspace, no repository', 'small'),
        row(`first command in a fresh \`git clone\` (copies its ${loose + 1} linked object files)`, 'first'),
        row('a later command in the same clone (object folders looked at again through the cache)', 'clone'),
        row('the object folders looked at alone (cached; nothing left to copy)', 'objects'),
        row(`a \`git clone --no-hardlinks\` of the same source (${what}, no links)`, 'plain'),
        row('alternative for a pack: two files hard-linked outside, kept read-only by a mount each', 'mounts'),
        row('reference: `git clone` of the source (hard links), outside the sandbox', 'linked'),
        row('reference: `git clone --no-hardlinks` of the source (git copies), outside the sandbox', 'copied'),
      ],
    };
  } finally {
    await sandbox.dispose();
  }
}
