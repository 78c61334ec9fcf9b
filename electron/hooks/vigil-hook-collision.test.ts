import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { claudeCodeEvents, type RecordedSession } from './test-support/recorded-events';
import { callsOf, printed, runHook, sessionHistory, startServe } from './test-support/hook-runs';

/** Runs one Claude Code hook event through a real `vigil hook` process; returns what it printed. */
async function hook(event: object, env: NodeJS.ProcessEnv): Promise<Record<string, unknown> | undefined> {
  const run = await runHook('claude-code', event, env);
  expect(run.code, run.stderr).toBe(0);
  return printed(run);
}

/** Claude Code session `first` writes src/app.ts in its open turn, through its hooks, as the agent would. */
async function firstWrites(first: RecordedSession, file: string, env: NodeJS.ProcessEnv): Promise<void> {
  await hook(claudeCodeEvents.sessionStart(first), env);
  await hook(claudeCodeEvents.prompt(first, 'Bump the version'), env);
  const input = { file_path: file, content: 'export const version = 2;\n' };
  await hook(claudeCodeEvents.preTool(first, 'Write', input, 'toolu_a1'), env);
  await writeFile(file, 'export const version = 2;\n');
  await hook(claudeCodeEvents.postTool(first, 'Write', input, 'toolu_a1', { filePath: file, success: true }), env);
}

describe('vigil hook claude-code: the collision guard', () => {
  let base: string;
  let remove: () => Promise<void>;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-hook-collision-'));
  });
  afterEach(async () => {
    await remove();
  });

  it(
    'asks in the agent’s own prompt before a second session overwrites the first one’s change, and denies with the collision message where it asks nobody',
    { timeout: 300_000 },
    async () => {
      const project = path.join(base, 'project');
      await mkdir(path.join(project, 'src'), { recursive: true });
      await mkdir(path.join(base, 'user'), { recursive: true });
      const file = path.join(project, 'src/app.ts');
      await writeFile(file, 'export const version = 1;\n');
      const env = {
        VIGIL_HOME: path.join(base, 'vigil-home'),
        HOME: path.join(base, 'user'),
        HERMES_HOME: path.join(base, 'no-hermes'),
      };
      const server = await startServe(env);
      try {
        const session = (id: string): RecordedSession => ({
          sessionId: id,
          cwd: project,
          transcriptPath: path.join(base, `user/.claude/projects/p/${id}.jsonl`),
        });
        const first = session('11111111-1111-4111-8111-111111111111');
        const second = session('22222222-2222-4222-8222-222222222222');
        await firstWrites(first, file, env);
        await hook(claudeCodeEvents.sessionStart(second), env);
        await hook(claudeCodeEvents.prompt(second, 'Set the version to 3'), env);

        const edit = { file_path: file, old_string: 'version = 2', new_string: 'version = 3', replace_all: false };
        const asked = await hook(claudeCodeEvents.preTool(second, 'Edit', edit, 'toolu_b1'), env);
        const output = asked?.['hookSpecificOutput'] as Record<string, string> | undefined;
        expect(output?.['permissionDecision']).toBe('ask');
        expect(output?.['permissionDecisionReason']).toMatch(
          /^Vigil: claude-code #2 would overwrite src\/app\.ts, changed by claude-code #1 \d+ s ago\. If you deny it, tell the agent: Edit of src\/app\.ts was not run/,
        );

        // The same call where Claude Code asks nobody: denied, with the message an agent can act on.
        const unattended = {
          ...claudeCodeEvents.preTool(second, 'Edit', edit, 'toolu_b2'),
          permission_mode: 'dontAsk',
        };
        const denied = await hook(unattended, env);
        const refusal = denied?.['hookSpecificOutput'] as Record<string, string> | undefined;
        expect(refusal?.['permissionDecision']).toBe('deny');
        expect(refusal?.['permissionDecisionReason']).toMatch(
          /^Vigil: Edit of src\/app\.ts was not run: claude-code #1, another live session, changed src\/app\.ts \d+ s ago, and this change would overwrite theirs\./,
        );
        expect(refusal?.['permissionDecisionReason']).toContain('Read src/app.ts again before changing it');
        const calls = callsOf(await sessionHistory(`claude-code-${second.sessionId}`, env));
        expect(calls.at(-1)).toMatchObject({
          decision: 'blocked',
          result: { ok: false, error: { code: 'collision' } },
        });
        expect(await readFile(file, 'utf8')).toBe('export const version = 2;\n');

        // The first session changing its own file again is no collision: Vigil raises nothing.
        const own = { file_path: file, old_string: 'version = 2', new_string: 'version = 4', replace_all: false };
        expect(await hook(claudeCodeEvents.preTool(first, 'Edit', own, 'toolu_a2'), env)).toBeUndefined();
      } finally {
        await server.stop();
      }
    },
  );
});
