import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigFile } from '../electron/config';
import { canonicalPath } from '../electron/files';
import { type PlanContext, planFileCall, planShellCall } from '../electron/executor';
import { workspaceRootOf } from '../electron/workspace';
import { silentLogger } from '../electron/logging';
import { assessCommand, PolicyEngine } from '../electron/policy';
import { fileChangeCoverage } from '../electron/tools';
import { formatMs, formatRatio, measure, type BenchTable, type Timing } from './harness';

/**
 * The checks a hook's PreToolUse now makes, timed in-process on the core's side (the whole-process
 * rows above include them): a Write planned as before (its root and what its checkpoint covers)
 * against the same plan with the checks of Vigil's own write_file (path resolved once, confinement,
 * protected locations, Vigil's folder, the user's rules); and a 70 KB heredoc command, which was
 * passed through unread and is now parsed whole.
 */
export async function measureHookChecks(runs: number): Promise<BenchTable> {
  const base = mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-hook-checks-'));
  try {
    const project = path.join(base, 'project');
    mkdirSync(path.join(project, 'src'), { recursive: true });
    writeFileSync(path.join(project, 'src', 'a.ts'), 'export const a = 1;\n');
    const config = path.join(base, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({ policy: { rules: [{ effect: 'deny', tool: 'write_file', path: 'secrets/**' }] } }),
    );
    const context: PlanContext = {
      roots: [project],
      cwd: project,
      facts: { home: path.join(base, 'home'), knownDirectories: () => Promise.resolve([]) },
      vigilHome: path.join(base, 'vigil-home'),
      policy: new PolicyEngine({ config: new ConfigFile(config), logger: silentLogger }),
      limits: { maxFileBytes: 10 * 1024 * 1024 },
    };
    const file = path.join(project, 'src', 'a.ts');
    const write = { kind: 'file' as const, name: 'Write', path: file, input: { file_path: file, content: 'x' } };
    const before = await measure(
      runs,
      () => undefined,
      async () => {
        const absolute = await canonicalPath(file, project);
        const root = await workspaceRootOf(absolute, context.roots, context.facts);
        if (root !== undefined) await fileChangeCoverage(absolute, root, context.limits);
      },
    );
    const after = await measure(
      runs,
      () => undefined,
      () => planFileCall(write, context),
    );
    const refused = await measure(
      runs,
      () => undefined,
      () => planFileCall({ ...write, path: path.join(project, 'secrets', 'k') }, context),
    );
    const heredoc = `cat > big.txt <<'EOF'\n${'x'.repeat(70 * 1024)}\nEOF\nrm -rf ~`;
    const long = await measure(
      Math.max(5, Math.floor(runs / 10)),
      () => undefined,
      () => assessCommand(heredoc, { cwd: project, roots: [project], home: context.facts.home, protectedPaths: [] }),
    );
    const shell = await measure(
      runs,
      () => undefined,
      () => planShellCall({ kind: 'shell', name: 'Bash', command: 'rm -f src/a.ts', input: {} }, context),
    );
    return checksTable(runs, { before, after, refused, long, shell });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** The table of the timings above. */
function checksTable(
  runs: number,
  timings: Readonly<Record<'before' | 'after' | 'refused' | 'long' | 'shell', Timing>>,
): BenchTable {
  const { before, after, refused, long, shell } = timings;
  return {
    caption: `The checks of one PreToolUse in the core, in-process: ${runs} runs each (medians)`,
    columns: ['Case', 'p50', 'p99', 'Baseline (same run)', 'Ratio'],
    rows: [
      [
        'Write inside the workspace, with write_file’s checks (resolve once, confine, protected locations, rules)',
        formatMs(after.median),
        formatMs(after.p99),
        `the plan without them: ${formatMs(before.median)}`,
        formatRatio(after.median, before.median),
      ],
      [
        'Write under a deny rule (refused)',
        formatMs(refused.median),
        formatMs(refused.p99),
        `the plan without checks: ${formatMs(before.median)}`,
        formatRatio(refused.median, before.median),
      ],
      [
        'Bash: a 70 KB heredoc then `rm -rf ~`, parsed whole (was: passed through unread)',
        formatMs(long.median),
        formatMs(long.p99),
        `Bash \`rm -f src/a.ts\` planned: ${formatMs(shell.median)}`,
        formatRatio(long.median, shell.median),
      ],
    ],
  };
}
