import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../electron/logging';
import { assessCommand } from '../electron/policy';
import {
  codeDenies,
  CommandSandbox,
  defaultSandboxSettings,
  maxLinkMounts,
  runTerminalCommand,
} from '../electron/sandbox';
import { interleaved, measureEdgeHookChecks } from './edges-hook-checks';
import { measureGitClone } from './edges-git-clone';
import { measurePnpmLinks } from './edges-pnpm';
import { formatMs, formatRatio, summarize, type BenchArea, type BenchTable } from './harness';

/**
 * What issue 30's checks at the sandbox's edges cost: on a terminal call (the look through the
 * roots for git directories, agents' settings and hard links that the profile keeps read-only; the
 * policy's look for workspace code) and on a hook call (the hard-link check of a file tool or a
 * command's named target). Every row has its baseline measured in the same run, interleaved.
 */
function repository(root: string, files: number): void {
  mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
  writeFileSync(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(path.join(root, '.git', 'config'), '[core]\n');
  for (let index = 0; index < files; index += 1) {
    const folder = path.join(root, `pkg${Math.floor(index / 50)}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, `mod${index}.ts`), `export const n = ${index};\n`);
  }
}

/** A workspace laid out as pnpm leaves one: a nested repository under node_modules and files hard-linked to a store outside. */
function pnpmLike(root: string, store: string, files: number, links: number): void {
  repository(root, files);
  repository(path.join(root, 'node_modules', 'dep'), 0);
  mkdirSync(store, { recursive: true });
  mkdirSync(path.join(root, 'node_modules', '.pnpm'), { recursive: true });
  for (let index = 0; index < links; index += 1) {
    writeFileSync(path.join(store, `f${index}.js`), `module.exports = ${index};\n`);
    linkSync(path.join(store, `f${index}.js`), path.join(root, 'node_modules', '.pnpm', `f${index}.js`));
  }
}

async function terminalTable(base: string, runs: number, files: number): Promise<BenchTable> {
  const small = path.join(base, 'small');
  const large = path.join(base, 'large');
  const pnpm = path.join(base, 'pnpm');
  repository(small, 0);
  repository(large, files);
  pnpmLike(pnpm, path.join(base, 'store'), files, 200);
  const home = path.join(base, 'home');
  const sandbox = new CommandSandbox({
    vigilHome: path.join(base, 'vigil'),
    home,
    settings: () => Promise.resolve(defaultSandboxSettings),
    logger: silentLogger,
    tempRoot: path.join(base, 'tmp'),
  });
  try {
    const status = await sandbox.status();
    if (status.kind !== 'ready') throw new Error(`the sandbox cannot start here: ${status.reason}`);
    const echo = (root: string, isSandboxed: boolean) => async () => {
      const prepared = isSandboxed
        ? await sandbox.prepare({ command: 'echo ok', cwd: root, roots: [root], sessionId: 'ses_bench' })
        : undefined;
      try {
        await runTerminalCommand({
          command: 'echo ok',
          cwd: root,
          timeoutMs: 60_000,
          outputCapBytes: 1 << 20,
          ...(prepared === undefined
            ? {}
            : { env: prepared.env, launch: { file: prepared.file, args: prepared.args } }),
        });
      } finally {
        await prepared?.ended();
      }
    };
    const assess = (command: string) => () =>
      assessCommand(command, { cwd: large, roots: [large], home, protectedPaths: [] });
    const samples = await interleaved(runs, {
      plain: echo(small, false),
      sandboxed: echo(small, true),
      sandboxedPnpm: echo(pnpm, true),
      deniesSmall: () => codeDenies([small], home),
      deniesLarge: () => codeDenies([large], home),
      deniesPnpm: () => codeDenies([pnpm], home),
      assessPlain: assess('grep -r foo pkg0'),
      assessCode: assess('PATH=.:$PATH ./grep -r foo pkg0 < script.sh'),
    });
    const t = (name: string) => summarize(samples[name] ?? []);
    const row = (label: string, name: string, baseline: string, baselineLabel: string): string[] => [
      label,
      formatMs(t(name).median),
      formatMs(t(name).p99),
      `${baselineLabel}: ${formatMs(t(baseline).median)}`,
      formatRatio(t(name).median, t(baseline).median),
    ];
    const pnpmLabel = `repository, ${files} files, a repository under node_modules, 200 files hard-linked to a store outside`;
    return {
      caption: `One terminal call's edges: ${runs} interleaved runs each (medians)`,
      columns: ['Case', 'p50', 'p99', 'Baseline (same run)', 'Ratio'],
      rows: [
        row('sandboxed `echo ok`, small repository (the whole call)', 'sandboxed', 'plain', 'plain spawn'),
        row(`sandboxed \`echo ok\`, ${pnpmLabel}`, 'sandboxedPnpm', 'sandboxed', 'the same, small repository'),
        row('the look through the roots alone, small repository', 'deniesSmall', 'sandboxed', 'its whole call'),
        row(`the look alone, repository with ${files} files`, 'deniesLarge', 'sandboxed', 'a small call'),
        row(`the look alone, ${pnpmLabel}`, 'deniesPnpm', 'sandboxedPnpm', 'its whole call'),
        row(
          'policy: `PATH=.:$PATH ./grep … < script.sh` (code from files found)',
          'assessCode',
          'assessPlain',
          '`grep -r foo pkg0`',
        ),
      ],
    };
  } finally {
    await sandbox.dispose();
  }
}

/** The edges area of `npm run bench`. */
export const run: BenchArea = async (context) => {
  const base = await mkdtemp(path.join(os.tmpdir(), 'vigil-bench-edges-'));
  try {
    const runs = context.isQuick ? 5 : 30;
    const files = context.isQuick ? 100 : 1000;
    const terminal = await terminalTable(base, runs, files);
    context.log('terminal rows done');
    const pnpm = await measurePnpmLinks(base, context.isQuick ? 3 : 15, context.isQuick ? 2000 : 20_000);
    context.log('pnpm rows done');
    const clone = await measureGitClone(
      base,
      context.isQuick ? 3 : 10,
      context.isQuick ? 500 : 5000,
      context.isQuick ? 5 : 50,
    );
    context.log('git clone rows done');
    const hook = await measureEdgeHookChecks(base, context.isQuick ? 5 : 200);
    return {
      title: "The sandbox's edges (issue 30): what the new checks cost a terminal call and a hook call",
      method:
        "Terminal: `echo ok` as the terminal tool runs it, sandboxed (the profile built, which now looks through the roots for every git directory's configuration and hooks, agents' settings and files hard-linked outside, all kept read-only; bubblewrap; the command; the check after it), against a plain spawn of the shell and against the look alone (`codeDenies`: one GNU `find` per root, then each git directory's entries and configuration read), and the policy's parse of a command that runs code from files against a plain one. Hard links in a pnpm tree: the same call in a workspace whose node_modules holds files hard-linked to a pnpm-like store, in the agents' cache or in the user's home. A local git clone: the same call in a workspace holding a `git clone` of a repository outside it (its objects hard-linked to the source's), the first command in a fresh clone (the objects copied) and later ones. Hook: the core's plan of one PreToolUse (`planFileCall`, `planShellCall`), for a file with one link and for one hard-linked to a file outside the workspace. Interleaved runs on a machine shared with other engineers' builds and tests (2 cores): read the ratios within a run.",
      tables: [terminal, pnpm, clone, hook],
      verdicts: [
        `The look through the roots is the new checks' own cost on a terminal call; it grows with the tree (node_modules included, since a repository or a hard link there counts too). The workspace with 200 files hard-linked to a store outside took ${terminal.rows[1]?.[4] ?? '?'} the small call: past ${maxLinkMounts} mounts the files are kept read-only by their folder (node_modules/.pnpm), one mount instead of a bind per file and a pin per folder above it.`,
        `Hard links in a pnpm tree: with the store where the sandbox may write, the links cost no mount (${pnpm.rows[1]?.[4] ?? '?'} the small call: the look through the tree and the store); with the store where it may not, one folder is kept read-only (${pnpm.rows[2]?.[4] ?? '?'}). Before, each file was one bind (and each folder above it a pin): 200 files made 823 mounts and about 5 s per command, 1,000 were refused (more than bubblewrap's 9,000 arguments).`,
        `A local git clone: its first sandboxed command replaces every object file hard-linked to the source with a private copy (${clone.rows[1]?.[1] ?? '?'}, a one-off of the order of git's own \`git clone --no-hardlinks\`, ${clone.rows[7]?.[1] ?? '?'}); each later command looks at the object folders again through the cache (${clone.rows[3]?.[1] ?? '?'}). Read-only mounts would cost every command (two files: ${clone.rows[5]?.[4] ?? '?'} the small call) and cannot cover thousands of loose objects within ${maxLinkMounts} mounts without making the object folder read-only, which stops \`git commit\`.`,
        'On a hook call the hard-link check is one lstat of the named file; a file or command target with more than one link then asks, naming it.',
      ],
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
};
