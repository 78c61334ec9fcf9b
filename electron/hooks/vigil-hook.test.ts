import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookAgent } from '../../shared/hooks/hook-event';
import { runVigil } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import {
  claudeCodeEvents,
  geminiCliEvents,
  type AgentEvents,
  type RecordedSession,
} from './test-support/recorded-events';
import { callsOf, gitFiles, gitTimeline, printed, runHook, sessionHistory, startServe } from './test-support/hook-runs';

/** One agent's names for the tools the recorded session uses, and what it reports after each. */
interface AgentTools {
  readonly agent: HookAgent;
  readonly events: AgentEvents;
  readonly write: string;
  readonly edit: string;
  readonly shell: string;
  /** Its input for a write, an edit (old → new) and a command. */
  writeInput(file: string, content: string): object;
  editInput(file: string, before: string, after: string): object;
  shellInput(command: string): object;
  /** What it reports after a tool ran. */
  response(kind: 'write' | 'edit' | 'shell', file?: string): unknown;
}

const claudeCode: AgentTools = {
  agent: 'claude-code',
  events: claudeCodeEvents,
  write: 'Write',
  edit: 'Edit',
  shell: 'Bash',
  writeInput: (file, content) => ({ file_path: file, content }),
  editInput: (file, before, after) => ({ file_path: file, old_string: before, new_string: after, replace_all: false }),
  shellInput: (command) => ({ command, description: 'Remove the legacy folder' }),
  response: (kind, file) =>
    kind === 'shell'
      ? { stdout: '', stderr: '', interrupted: false, isImage: false }
      : { filePath: file, success: true },
};

const geminiCli: AgentTools = {
  agent: 'gemini-cli',
  events: geminiCliEvents,
  write: 'write_file',
  edit: 'replace',
  shell: 'run_shell_command',
  writeInput: (file, content) => ({ file_path: file, content }),
  editInput: (file, before, after) => ({ file_path: file, old_string: before, new_string: after }),
  shellInput: (command) => ({ command, description: 'Remove the legacy folder' }),
  response: (kind, file) => ({
    llmContent: kind === 'shell' ? 'Command: rm -rf legacy\nExit Code: 0' : `Wrote ${file ?? ''}`,
    returnDisplay: 'done',
  }),
};

/** A project with a source file and a legacy folder, a throwaway HOME and VIGIL_HOME. */
async function workspace(
  base: string,
): Promise<{ readonly project: string; readonly env: NodeJS.ProcessEnv; readonly home: string }> {
  const project = path.join(base, 'project');
  await mkdir(path.join(project, 'src'), { recursive: true });
  await mkdir(path.join(project, 'legacy'), { recursive: true });
  await writeFile(path.join(project, 'src/app.ts'), 'export const one = 1;\n');
  await writeFile(path.join(project, 'legacy/old.txt'), 'the old way\n');
  await mkdir(path.join(base, 'user'), { recursive: true });
  const home = path.join(base, 'vigil-home');
  return {
    project,
    home,
    env: { VIGIL_HOME: home, HOME: path.join(base, 'user'), HERMES_HOME: path.join(base, 'no-hermes') },
  };
}

/**
 * The recorded session of the issue, through real `vigil hook` processes: start, a prompt, a Write,
 * an Edit and `rm -rf legacy` (each performed by the test between its before and after events, as
 * the agent would), a refused `rm -rf ~`, the turn's end. Returns the history before the session ends.
 */
async function recordedSession(tools: AgentTools, project: string, env: NodeJS.ProcessEnv, session: RecordedSession) {
  const { events } = tools;
  const hook = async (event: object): Promise<Record<string, unknown> | undefined> => {
    const run = await runHook(tools.agent, event, env);
    expect(run.code, run.stderr).toBe(0);
    // Relayed to the running core, or (no core) in-process without a word: never a fallback.
    expect(run.stderr).not.toMatch(/working in-process/);
    return printed(run);
  };
  await hook(events.sessionStart(session));
  await hook(events.prompt(session, 'Add a greeting, shout the constant and drop the legacy code'));

  const hello = path.join(project, 'hello.txt');
  const write = tools.writeInput(hello, 'hello\n');
  const beforeWrite = await hook(events.preTool(session, tools.write, write, 'toolu_01'));
  await writeFile(hello, 'hello\n');
  await hook(events.postTool(session, tools.write, write, 'toolu_01', tools.response('write', hello)));

  const app = path.join(project, 'src/app.ts');
  const edit = tools.editInput(app, 'one = 1', 'ONE = 1');
  await hook(events.preTool(session, tools.edit, edit, 'toolu_02'));
  await writeFile(app, 'export const ONE = 1;\n');
  await hook(events.postTool(session, tools.edit, edit, 'toolu_02', tools.response('edit', app)));

  const remove = tools.shellInput('rm -rf legacy');
  await hook(events.preTool(session, tools.shell, remove, 'toolu_03'));
  await rm(path.join(project, 'legacy'), { recursive: true });
  await hook(events.postTool(session, tools.shell, remove, 'toolu_03', tools.response('shell')));

  const refused = await hook(events.preTool(session, tools.shell, tools.shellInput('rm -rf ~'), 'toolu_04'));
  await hook(events.stop(session));
  return { beforeWrite, refused };
}

/** What both agents' recorded sessions must come to, on record and in git's own store. */
async function expectSupervised(
  tools: AgentTools,
  sessionId: string,
  project: string,
  home: string,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const history = await sessionHistory(sessionId, env);
  expect(history.session).toMatchObject({ agent: tools.agent, currentTurn: 1, isTurnOpen: false, roots: [project] });
  expect(history.turns[0]?.entries[0]).toMatchObject({
    kind: 'message',
    role: 'user',
    text: 'Add a greeting, shout the constant and drop the legacy code',
  });
  const calls = callsOf(history);
  expect(calls.map((call) => [call.name, call.decision, call.result.ok])).toEqual([
    [tools.write, 'allowed', true],
    [tools.edit, 'allowed', true],
    [tools.shell, 'allowed', true],
    [tools.shell, 'blocked', false],
  ]);
  // The first write of the turn is checkpointed; the edit finds that checkpoint; the command takes its own; the refused one none.
  expect(calls.map((call) => call.checkpoints.map((checkpoint) => checkpoint.kind))).toEqual([
    ['created'],
    [],
    ['created'],
    [],
  ]);
  expect(calls[0]?.result).toMatchObject({ ok: true, value: { changedFiles: [path.join(project, 'hello.txt')] } });
  expect(calls[2]?.result).toMatchObject({
    ok: true,
    value: { changedFiles: expect.arrayContaining([path.join(project, 'legacy/old.txt')]) as unknown },
  });

  const timeline = await gitTimeline(home, project);
  expect(timeline.map((entry) => [entry.subject, entry.session])).toEqual([
    ['before terminal: rm -rf legacy', sessionId],
    [`before ${tools.write}`, sessionId],
  ]);
  const [beforeCommand, beforeWrite] = timeline;
  expect(await gitFiles(home, beforeWrite?.id ?? '')).toEqual(['legacy/old.txt', 'src/app.ts']);
  expect(await gitFiles(home, beforeCommand?.id ?? '')).toEqual(['hello.txt', 'legacy/old.txt', 'src/app.ts']);
  return beforeCommand?.id ?? '';
}

describe('vigil hook, recorded sessions through real processes', () => {
  let base: string;
  let remove: () => Promise<void>;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-hook-'));
  });
  afterEach(async () => {
    await remove();
  });

  it(
    'claude-code without a resident core: session, titled turn, checkpoints before the first write and before rm -rf legacy, rm -rf ~ denied; a restore brings legacy/ back',
    { timeout: 300_000 },
    async () => {
      const { project, home, env } = await workspace(base);
      const session = {
        sessionId: '6a3c0f3e-8d1b-4f1a-9e57-2c1d0b9a7e11',
        cwd: project,
        transcriptPath: path.join(base, 'user/.claude/projects/p/6a3c.jsonl'),
      };
      const { beforeWrite, refused } = await recordedSession(claudeCode, project, env, session);
      // Vigil raises no objection to the write: nothing printed, so Claude Code's own permission rules decide.
      expect(beforeWrite).toBeUndefined();
      expect(refused).toEqual({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: expect.stringMatching(/^Vigil never runs this command: "rm -rf ~"/) as unknown,
        },
      });
      const sessionId = `claude-code-${session.sessionId}`;
      const commandCheckpoint = await expectSupervised(claudeCode, sessionId, project, home, env);
      expect((await sessionHistory(sessionId, env)).session.transcriptPath).toBe(session.transcriptPath);

      // The session ends; a restore of the checkpoint before the command brings legacy/ back, and the
      // plan does not flag the deleted file as changed outside the agents (the ledger knows the agent did it).
      expect((await runHook('claude-code', claudeCodeEvents.sessionEnd(session), env)).code).toBe(0);
      expect((await sessionHistory(sessionId, env)).session.status).toBe('ended');
      const plan = JSON.parse(
        (await runVigil(['checkpoints', 'restore', project, commandCheckpoint, '--dry-run', '--json'], { env })).stdout,
      ) as { entries: { path: string; action: string; isChangedOutsideAgents: boolean }[] };
      expect(plan.entries).toEqual([
        {
          path: 'legacy/old.txt',
          action: 'recreate',
          isChangedOutsideAgents: false,
          checkpoint: expect.anything() as unknown,
          changedBy: { kind: 'session', sessionId, agent: 'claude-code', turn: 1, tool: 'Bash' },
          changedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/u) as unknown,
        },
      ]);
      expect((await runVigil(['checkpoints', 'restore', project, commandCheckpoint], { env })).code).toBe(0);
      expect(await readFile(path.join(project, 'legacy/old.txt'), 'utf8')).toBe('the old way\n');
    },
  );

  it(
    'gemini-cli relayed to a running vigil serve: the same session, held live by the core; rm -rf ~ denied in its format',
    { timeout: 300_000 },
    async () => {
      const { project, home, env } = await workspace(base);
      const server = await startServe(env);
      try {
        const session = {
          sessionId: 'f00dbabe-0000-4000-8000-000000000001',
          cwd: project,
          transcriptPath: path.join(base, 'user/.gemini/tmp/chats/session.json'),
        };
        const { beforeWrite, refused } = await recordedSession(geminiCli, project, env, session);
        expect(beforeWrite).toEqual({ decision: 'allow' });
        expect(refused).toEqual({
          decision: 'deny',
          reason: expect.stringMatching(/^Vigil never runs this command: "rm -rf ~"/) as unknown,
        });
        const sessionId = `gemini-cli-${session.sessionId}`;
        const commandCheckpoint = await expectSupervised(geminiCli, sessionId, project, home, env);
        // Held by the resident core between events (a one-shot process holds nothing: it would read "disconnected").
        expect((await sessionHistory(sessionId, env)).session.status).toBe('idle');
        expect((await runHook('gemini-cli', geminiCliEvents.sessionEnd(session), env)).code).toBe(0);
        expect((await sessionHistory(sessionId, env)).session.status).toBe('ended');
        expect((await runVigil(['checkpoints', 'restore', project, commandCheckpoint], { env })).code).toBe(0);
        expect(existsSync(path.join(project, 'legacy/old.txt'))).toBe(true);
      } finally {
        await server.stop();
      }
    },
  );
});
