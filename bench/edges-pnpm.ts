import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { silentLogger } from '../electron/logging';
import { CommandSandbox, defaultSandboxSettings, runTerminalCommand } from '../electron/sandbox';
import { interleaved } from './edges-hook-checks';
import { formatMs, formatRatio, summarize, type BenchTable } from './harness';

/**
 * Hard links at pnpm's scale (issue 30, H4): `echo ok` sandboxed in a workspace whose node_modules
 * holds `files` files, every one hard-linked into a pnpm-like store, once with the store where the
 * sandbox may write it (the agents' package cache: the links stay writable, no mount) and once
 * with the store in the user's home (it may not: the files are kept read-only by their folder).
 * Baseline: the same call in a small workspace, in the same run.
 */
function pnpmTree(workspace: string, store: string, files: number): void {
  const perPackage = 20;
  const modules = path.join(workspace, 'node_modules');
  mkdirSync(path.join(modules, '.pnpm'), { recursive: true });
  writeFileSync(path.join(modules, '.pnpm', 'lock.yaml'), 'lockfileVersion: 9.0\n');
  for (let index = 0; index < files; index += 1) {
    const name = `pkg${Math.floor(index / perPackage)}`;
    const folder = path.join(modules, '.pnpm', `${name}@1.0.0`, 'node_modules', name, 'lib');
    const content = path.join(store, 'files', (index % 256).toString(16).padStart(2, '0'));
    if (index % perPackage === 0) {
      mkdirSync(folder, { recursive: true });
      symlinkSync(path.join('.pnpm', `${name}@1.0.0`, 'node_modules', name), path.join(modules, name));
    }
    mkdirSync(content, { recursive: true });
    writeFileSync(path.join(content, `${index}`), `module.exports = ${index};\n`);
    linkSync(path.join(content, `${index}`), path.join(folder, `f${index}.js`));
  }
}

/** The pnpm table of the edges area: `files` hard-linked files per tree, `runs` interleaved runs. */
export async function measurePnpmLinks(base: string, runs: number, files: number): Promise<BenchTable> {
  const tempRoot = path.join(base, 'pnpm-tmp');
  const home = path.join(base, 'pnpm-home');
  const small = path.join(base, 'pnpm-small');
  const writable = path.join(base, 'pnpm-writable');
  const readOnly = path.join(base, 'pnpm-read-only');
  mkdirSync(small, { recursive: true });
  pnpmTree(writable, path.join(tempRoot, 'agent-cache', 'pnpm-store', 'v3'), files);
  pnpmTree(readOnly, path.join(home, '.local', 'share', 'pnpm', 'store', 'v3'), files);
  const sandbox = new CommandSandbox({
    vigilHome: path.join(base, 'pnpm-vigil'),
    home,
    settings: () => Promise.resolve(defaultSandboxSettings),
    logger: silentLogger,
    tempRoot,
  });
  try {
    const status = await sandbox.status();
    if (status.kind !== 'ready') throw new Error(`the sandbox cannot start here: ${status.reason}`);
    const echo = (root: string) => async () => {
      const prepared = await sandbox.prepare({ command: 'echo ok', cwd: root, roots: [root], sessionId: 'ses_pnpm' });
      try {
        await runTerminalCommand({
          command: 'echo ok',
          cwd: root,
          timeoutMs: 120_000,
          outputCapBytes: 1 << 20,
          env: prepared.env,
          launch: { file: prepared.file, args: prepared.args },
        });
      } finally {
        await prepared.ended();
      }
    };
    const kept = async (root: string): Promise<string> => {
      const profile = await sandbox.profile({ roots: [root], sessionId: 'ses_pnpm' }, defaultSandboxSettings);
      const linked = profile.denyWrite.filter((entry) => entry.startsWith(path.join(root, 'node_modules')));
      return `${profile.linkedOutside.length} linked files kept read-only by ${linked.length} path(s)`;
    };
    const samples = await interleaved(runs, { small: echo(small), writable: echo(writable), readOnly: echo(readOnly) });
    const t = (name: string) => summarize(samples[name] ?? []);
    const row = (label: string, name: string, note: string): string[] => [
      label,
      formatMs(t(name).median),
      formatMs(t(name).p99),
      `small workspace: ${formatMs(t('small').median)}`,
      formatRatio(t(name).median, t('small').median),
      note,
    ];
    return {
      caption: `Hard links in a pnpm tree: sandboxed \`echo ok\`, ${runs} interleaved runs each (medians)`,
      columns: ['Case', 'p50', 'p99', 'Baseline (same run)', 'Ratio', 'Profile'],
      rows: [
        row('small workspace, no links', 'small', 'none'),
        row(
          `${files} files hard-linked to a store the sandbox may write (the agents' cache)`,
          'writable',
          await kept(writable),
        ),
        row(
          `${files} files hard-linked to a store it may not write (the user's, in the home folder)`,
          'readOnly',
          await kept(readOnly),
        ),
      ],
    };
  } finally {
    await sandbox.dispose();
  }
}
