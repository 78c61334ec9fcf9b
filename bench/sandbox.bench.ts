import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { silentLogger } from '../electron/logging';
import { CommandSandbox, defaultSandboxSettings, runTerminalCommand } from '../electron/sandbox';
import { formatMs, formatRatio, summarize, type BenchArea, type Timing } from './harness';

/**
 * What the OS sandbox adds to one terminal call: `echo ok` spawned with the platform shell (the
 * baseline, as before the sandbox) against the same command wrapped by the sandbox engine and run
 * under bubblewrap, in a small workspace and in one with a repository and 1,000 folders (the
 * profile looks for repositories below each root). Interleaved runs, medians and p99.
 */
async function workspaceWith(base: string, name: string, folders: number): Promise<string> {
  const root = path.join(base, name);
  await mkdir(path.join(root, '.git', 'hooks'), { recursive: true });
  await writeFile(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  await writeFile(path.join(root, '.git', 'config'), '[core]\n');
  for (let index = 0; index < folders; index += 1) {
    const folder = path.join(root, `pkg${Math.floor(index / 50)}`, `mod${index}`);
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'index.ts'), `export const n = ${index};\n`);
  }
  return root;
}

function runCommand(
  command: string,
  cwd: string,
  launch?: { readonly file: string; readonly args: readonly string[]; readonly env: NodeJS.ProcessEnv },
): Promise<unknown> {
  return runTerminalCommand({
    command,
    cwd,
    timeoutMs: 60_000,
    outputCapBytes: 1 << 20,
    ...(launch === undefined ? {} : { env: launch.env, launch: { file: launch.file, args: launch.args } }),
  });
}

/** The sandbox area of `npm run bench`. */
export const run: BenchArea = async (context) => {
  const { isQuick } = context;
  const base = await mkdtemp(path.join(os.tmpdir(), 'vigil-bench-sandbox-'));
  const sandbox = new CommandSandbox({
    vigilHome: path.join(base, 'vigil'),
    home: os.homedir(),
    settings: () => Promise.resolve(defaultSandboxSettings),
    logger: silentLogger,
    tempRoot: path.join(base, 'tmp'),
  });
  try {
    const status = await sandbox.status();
    if (status.kind !== 'ready') throw new Error(`the sandbox cannot start here: ${status.reason}`);
    const small = await workspaceWith(base, 'small', 0);
    const large = await workspaceWith(base, 'large', isQuick ? 100 : 1000);
    const runs = isQuick ? 5 : 40;
    const samples = { plain: [] as number[], wrap: [] as number[], sandboxed: [] as number[], large: [] as number[] };
    const sandboxedCall = async (root: string): Promise<{ wrap: number; total: number }> => {
      const start = performance.now();
      const prepared = await sandbox.prepare({ command: 'echo ok', cwd: root, roots: [root], sessionId: 'ses_bench' });
      const wrapped = performance.now();
      try {
        await runCommand('echo ok', root, prepared);
      } finally {
        await prepared.ended();
      }
      return { wrap: wrapped - start, total: performance.now() - start };
    };
    await sandboxedCall(small);
    await runCommand('echo ok', small);
    for (let index = 0; index < runs; index += 1) {
      let start = performance.now();
      await runCommand('echo ok', small);
      samples.plain.push(performance.now() - start);
      const call = await sandboxedCall(small);
      samples.wrap.push(call.wrap);
      samples.sandboxed.push(call.total);
      start = performance.now();
      await sandboxedCall(large);
      samples.large.push(performance.now() - start);
    }
    const plain = summarize(samples.plain);
    const row = (name: string, timing: Timing, note: string): string[] => [
      name,
      formatMs(timing.median),
      formatMs(timing.p99),
      formatRatio(timing.median, plain.median),
      note,
    ];
    const sandboxed = summarize(samples.sandboxed);
    context.log(`sandboxed p50 ${formatMs(sandboxed.median)} vs plain ${formatMs(plain.median)}`);
    return {
      title: 'OS sandbox: the cost of one terminal call',
      method: `\`echo ok\` as the terminal tool runs it, ${runs} interleaved runs of each after a warm-up. Baseline: the platform shell spawned directly (no sandbox). Sandboxed: the profile built (roots, temp, denies), the engine's wrap (bubblewrap command line, proxy variables), bubblewrap started with its mounts, network namespace and seccomp filter, and its mount points released. The engine and its proxies start once per process (not counted).`,
      tables: [
        {
          caption: 'Per call (p50, p99)',
          columns: ['path', 'p50', 'p99', 'vs plain spawn', 'what it does'],
          rows: [
            row('plain spawn of /bin/sh (baseline)', plain, 'what every command cost before the sandbox'),
            row('profile + wrap only', summarize(samples.wrap), 'no process started'),
            row('sandboxed call, small workspace', sandboxed, 'profile, wrap, bubblewrap, seccomp, the command'),
            row(
              `sandboxed call, workspace with a repository and ${isQuick ? 100 : 1000} folders`,
              summarize(samples.large),
              'the same; the profile looks for repositories 3 levels down',
            ),
          ],
        },
      ],
      verdicts: [
        `The sandbox adds ${formatMs(sandboxed.median - plain.median)} (p50) to a terminal call here; most of it is the engine's own start-up of bubblewrap, its proxy bridges and its seccomp namespace (the wrap alone is ${formatMs(summarize(samples.wrap).median)}). Measured on a machine shared with other builds: the p99 reflects that load.`,
      ],
    };
  } finally {
    await sandbox.dispose();
    await rm(base, { recursive: true, force: true });
  }
};
