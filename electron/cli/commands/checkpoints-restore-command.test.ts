import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCheckpointService } from '../../checkpoints';
import { silentLogger } from '../../logging/logger';
import { runVigil, type VigilRun } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';
import { commandTable } from '../command-table';
import { runCli } from '../run-cli';

const { CheckpointService: CheckpointEngine } = await loadCheckpointService();

/**
 * The two commands run in this process through runCli (the CLI's own entry, with captured
 * streams), and end to end as real `vigil` child processes for the restore and its undo.
 */
async function vigil(args: readonly string[], env: NodeJS.ProcessEnv): Promise<VigilRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.setEncoding('utf8').on('data', (chunk: string) => out.push(chunk));
  stderr.setEncoding('utf8').on('data', (chunk: string) => err.push(chunk));
  const code = await runCli(
    args,
    { stdout, stderr, stdin: new PassThrough(), env: { ...process.env, ...env }, cwd: process.cwd() },
    commandTable,
  );
  return { code, signal: null, stdout: out.join(''), stderr: err.join('') };
}

describe('vigil checkpoints diff and restore', () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-cli-restore-'));
    dir = path.join(base, 'project');
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    writeFileSync(path.join(dir, 'src/app.ts'), "print('original content')\n");
    writeFileSync(path.join(dir, 'notes.md'), 'notes\n');
    writeFileSync(path.join(dir, '.env'), 'TOKEN=one\n');
    env = { VIGIL_HOME: path.join(base, 'home') };
    const engine = new CheckpointEngine({ root: path.join(base, 'home', 'checkpoints'), logger: silentLogger });
    expect((await engine.checkpoint(dir, { reason: 'before patch' })).kind).toBe('created');
    await engine.dispose();
    writeFileSync(path.join(dir, 'src/app.ts'), "print('modified content')\n");
    writeFileSync(path.join(dir, 'created.txt'), 'created after the checkpoint\n');
    writeFileSync(path.join(dir, '.env'), 'TOKEN=two\n');
    rmSync(path.join(dir, 'notes.md'));
  });
  afterEach(async () => {
    await remove();
  });

  it('shows a stat summary then the diff, capped with a note', async () => {
    const full = await vigil(['checkpoints', 'diff', dir, '1'], env);
    const capped = await vigil(['checkpoints', 'diff', dir, '1', '--lines', '5'], env);
    const one = await vigil(['checkpoints', 'diff', dir, '1', 'src/app.ts'], env);
    const json = await vigil(['checkpoints', 'diff', dir, '1', '--json'], env);
    expect(full.code, full.stderr).toBe(0);
    expect(full.stdout).toContain(' created.txt | ');
    expect(full.stdout).toMatch(/^ 3 files changed, 2 insertions\(\+\), 2 deletions\(-\)$/m);
    expect(full.stdout).toContain(
      [
        '--- a/src/app.ts',
        '+++ b/src/app.ts',
        '@@ -1,1 +1,1 @@',
        "-print('original content')",
        "+print('modified content')",
      ].join('\n'),
    );
    expect(full.stdout).not.toContain('.env');
    expect(capped.stdout).toMatch(
      /\(diff capped at 5 lines; about \d+ more not shown: name a FILE, or raise --lines\)/,
    );
    expect(one.stdout).toMatch(/^ 1 file changed, 1 insertion\(\+\), 1 deletion\(-\)$/m);
    expect(one.stdout).not.toContain('created.txt');
    const parsed = JSON.parse(json.stdout) as { totalFiles: number; diffs: Array<{ path: string; status: string }> };
    expect(parsed.totalFiles).toBe(3);
    expect(parsed.diffs.map((diff) => `${diff.status} ${diff.path}`)).toEqual([
      'added created.txt',
      'deleted notes.md',
      'modified src/app.ts',
    ]);
  });

  it('prints the plan with --dry-run and changes nothing', async () => {
    const run = await vigil(['checkpoints', 'restore', dir, '1', '--dry-run'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^Plan: restore .*project to checkpoint [0-9a-f]{8} {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}before patch$/m,
    );
    expect(run.stdout).toMatch(/^ {2}delete {4}created\.txt +! changed outside Vigil$/m);
    expect(run.stdout).toMatch(/^ {2}re-create notes\.md/m);
    expect(run.stdout).toMatch(/^ {2}restore {3}src\/app\.ts/m);
    expect(run.stdout).toContain('1 to restore, 1 to re-create, 1 to delete, 0 skipped.');
    expect(run.stdout).toContain('Dry run: nothing was changed.');
    expect(readFileSync(path.join(dir, 'src/app.ts'), 'utf8')).toBe("print('modified content')\n");
    expect(existsSync(path.join(dir, 'created.txt'))).toBe(true);
  });

  it('restores, says how to undo, and the undo brings everything back (real vigil processes)', async () => {
    const run = await runVigil(['checkpoints', 'restore', dir, '1'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('✅ Restored 3 file(s) to checkpoint');
    expect(readFileSync(path.join(dir, 'src/app.ts'), 'utf8')).toBe("print('original content')\n");
    expect(readFileSync(path.join(dir, 'notes.md'), 'utf8')).toBe('notes\n');
    expect(existsSync(path.join(dir, 'created.txt'))).toBe(false);
    expect(readFileSync(path.join(dir, '.env'), 'utf8')).toBe('TOKEN=two\n');
    const undoLine = /^Undo this restore: vigil checkpoints restore (\S+) 1$/m.exec(run.stdout);
    expect(undoLine?.[1]).toBe(dir);

    const undo = await runVigil(['checkpoints', 'restore', dir, '1', '--json'], { env });
    expect(undo.code, undo.stderr).toBe(0);
    const result = JSON.parse(undo.stdout) as { counts: { done: number }; plan: { checkpoint: { reason: string } } };
    expect(result.plan.checkpoint.reason).toMatch(/^pre-rollback snapshot \(restoring to [0-9a-f]{8}\)$/);
    expect(result.counts.done).toBe(3);
    // The --json document is the restore's result as it always was: the undo number is printed only in words.
    expect(Object.keys(result)).not.toContain('undoNumber');
    expect(readFileSync(path.join(dir, 'src/app.ts'), 'utf8')).toBe("print('modified content')\n");
    expect(readFileSync(path.join(dir, 'created.txt'), 'utf8')).toBe('created after the checkpoint\n');
    expect(existsSync(path.join(dir, 'notes.md'))).toBe(false);
  });

  it('restores one file only', async () => {
    const run = await vigil(['checkpoints', 'restore', dir, '1', 'src/app.ts'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'src/app.ts'), 'utf8')).toBe("print('original content')\n");
    expect(existsSync(path.join(dir, 'created.txt'))).toBe(true);
    expect(existsSync(path.join(dir, 'notes.md'))).toBe(false);
  });

  it('names what is wrong with a bad directory, number, id or file', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['checkpoints', 'restore', path.join(base, 'elsewhere'), '1'], /has no checkpoints/],
      [['checkpoints', 'restore', dir, '7', '--dry-run'], /no checkpoint 7 .*use 1–1/],
      [['checkpoints', 'restore', dir, '7'], /no checkpoint 7 .*use 1–1/],
      [['checkpoints', 'restore', dir, '0', 'src/app.ts', '--json'], /no checkpoint 0 .*use 1–1/],
      [['checkpoints', 'diff', dir, 'xyz123'], /"xyz123" is not a checkpoint number or id/],
      [['checkpoints', 'restore', dir, '--', '-1'], /"-1" is not a checkpoint/],
      [['checkpoints', 'restore', dir, '1', '/etc/passwd', '--dry-run'], /"\/etc\/passwd" is absolute/],
      [
        ['checkpoints', 'restore', dir, '1', '../outside.txt', '--dry-run'],
        /"\.\.\/outside\.txt" leaves the directory/,
      ],
      [
        ['checkpoints', 'restore', dir, '1', 'missing.txt', '--dry-run'],
        /missing\.txt is neither in checkpoint [0-9a-f]{8} nor in/,
      ],
    ];
    const runs: VigilRun[] = [];
    for (const [args] of cases) runs.push(await vigil(args, env));
    runs.forEach((run, index) => {
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(cases[index]?.[1] ?? /never/);
    });
    const usage = await vigil(['checkpoints', 'restore', dir], env);
    expect(usage.code).toBe(2);
  });
});
