import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runVigil, type VigilRun } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import { gitTimeline, printed } from '../hooks/test-support/hook-runs';
import { claudeCodeEvents, type RecordedSession } from '../hooks/test-support/recorded-events';
import { makeObjectsUnreadable } from './test-support/unreadable-objects';

/** The file size limit of the limited runs: far above anything but the big file's object. */
const fileSizeLimit = 512 * 1024;

/** Runs `vigil ARGS` (no core: in this process) under the file size limit, `input` on its stdin. */
function runLimited(args: readonly string[], env: NodeJS.ProcessEnv, input = ''): Promise<VigilRun> {
  return runVigil(args, { env, input, fileSizeLimit });
}

const storeMessage = (home: string): string =>
  `The checkpoint store at ${path.join(home, 'checkpoints', 'store')} could not be written (EFBIG: file too large); nothing was checkpointed`;

describe('a checkpoint whose store cannot be written, seen from the CLI and the hooks', () => {
  let base: string;
  let remove: () => Promise<void>;
  let project: string;
  let home: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-store-surfaced-'));
    project = path.join(base, 'project');
    home = path.join(base, 'vigil-home');
    await mkdir(path.join(project, '.git'), { recursive: true });
    await mkdir(path.join(base, 'user'), { recursive: true });
    await mkdir(home, { recursive: true });
    await writeFile(path.join(project, 'a.txt'), 'a\n');
    env = { VIGIL_HOME: home, HOME: path.join(base, 'user'), HERMES_HOME: path.join(base, 'no-hermes') };
    expect((await runVigil(['checkpoint', project], { env })).code).toBe(0);
    // Random bytes do not compress: the object stays above the limit.
    await writeFile(path.join(project, 'big.data'), randomBytes(4 * fileSizeLimit));
  });
  afterEach(async () => {
    await remove();
  });

  it('`vigil checkpoint` fails with the store, the cause and the fix, and the timeline keeps its head', async () => {
    const before = await gitTimeline(home, project);
    const run = await runLimited(['checkpoint', project], env);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(storeMessage(home));
    expect(run.stderr).toContain('raise the limit and try again');
    expect(await gitTimeline(home, project)).toEqual(before);
    // Without the limit the same checkpoint is taken.
    expect((await runVigil(['checkpoint', project], { env })).code).toBe(0);
    expect(await gitTimeline(home, project)).toHaveLength(before.length + 1);
  }, 120_000);

  it("Vigil's own write_file (`vigil tool`, nobody to ask) is refused, naming the failure and the fix, and writes nothing", async () => {
    const before = await gitTimeline(home, project);
    const args = JSON.stringify({ path: 'b.txt', content: 'b\n' });
    const run = await runLimited(['tool', 'write_file', '--args', args, '--cwd', project], env);
    // Held as an agent's own Write is (design §4); before the fix it ran, its failure only reported.
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('write_file was not run: Vigil could not checkpoint before it');
    expect(run.stderr).toContain(`The checkpoint of ${project} before write_file failed: `);
    expect(run.stderr).toContain(storeMessage(home));
    expect(run.stderr).toContain('"checkpoints": { "onFailure": "allow" }');
    expect(existsSync(path.join(project, 'b.txt'))).toBe(false);
    expect(await gitTimeline(home, project)).toEqual(before);
  }, 120_000);

  it('`vigil tool` on a store whose objects folder cannot be read is refused and moves no timeline', async () => {
    const before = await gitTimeline(home, project);
    const mend = await makeObjectsUnreadable(home);
    const args = JSON.stringify({ path: 'b.txt', content: 'b\n' });
    const run = await runVigil(['tool', 'write_file', '--args', args, '--cwd', project], { env });
    await mend();
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('write_file was not run: Vigil could not checkpoint before it');
    expect(existsSync(path.join(project, 'b.txt'))).toBe(false);
    // Before the fix the one-shot core's start-up repair took the unreadable head for a damaged one and removed the ref.
    expect(await gitTimeline(home, project)).toEqual(before);
  }, 120_000);

  it('with checkpoints.onFailure "allow" (or hooks.onFailure, its older name) `vigil tool` writes, saying it has no checkpoint', async () => {
    const before = await gitTimeline(home, project);
    for (const [config, file] of [
      [{ checkpoints: { onFailure: 'allow' } }, 'b.txt'],
      [{ hooks: { onFailure: 'allow' } }, 'c.txt'],
    ] as const) {
      await writeFile(path.join(home, 'config.json'), JSON.stringify(config));
      const args = JSON.stringify({ path: file, content: 'written\n' });
      const run = await runLimited(['tool', 'write_file', '--args', args, '--cwd', project], env);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(storeMessage(home));
      expect(run.stderr).toContain('so the call went on without its checkpoint: its changes there cannot be undone');
      expect(await readFile(path.join(project, file), 'utf8')).toBe('written\n');
    }
    expect(await gitTimeline(home, project)).toEqual(before);
  }, 120_000);

  it("a hook's Write whose checkpoint failed is held for the user with that error, not let through", async () => {
    const session: RecordedSession = { sessionId: 'full-1', cwd: project, transcriptPath: path.join(base, 't.jsonl') };
    const before = await gitTimeline(home, project);
    const write = { file_path: path.join(project, 'b.txt'), content: 'b\n' };
    const run = await runLimited(
      ['hook', 'claude-code'],
      env,
      JSON.stringify(claudeCodeEvents.preTool(session, 'Write', write, 'w1')),
    );
    const output = printed(run)?.['hookSpecificOutput'] as Record<string, unknown> | undefined;
    // Before the fix the checkpoint was created without big.data and the Write was allowed.
    expect(output?.['permissionDecision']).toBe('ask');
    expect(String(output?.['permissionDecisionReason'])).toContain(storeMessage(home));
    expect(await gitTimeline(home, project)).toEqual(before);
  }, 120_000);
});
