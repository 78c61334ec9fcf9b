import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runVigil } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import { callsOf, printed, runHook, sessionHistory } from './test-support/hook-runs';
import { claudeCodeEvents, geminiCliEvents, type RecordedSession } from './test-support/recorded-events';

/** Bad input of an event that gates nothing: exit 0, `{"continue":true}`, one stderr line naming the field. */
async function expectContinues(
  agent: 'claude-code' | 'gemini-cli',
  input: object | string,
  field: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const run = await runHook(agent, input, env);
  expect(run.code).toBe(0);
  expect(printed(run)).toEqual({ continue: true });
  expect(run.stderr).toContain(`field "${field}"`);
}

/** A tool call Vigil cannot assess: exit 0, a deny naming the field, in the agent's format. */
async function expectDenied(
  agent: 'claude-code' | 'gemini-cli',
  input: object,
  field: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const run = await runHook(agent, input, env);
  expect(run.code).toBe(0);
  const output = printed(run);
  const reason =
    agent === 'claude-code'
      ? (output?.['hookSpecificOutput'] as Record<string, unknown> | undefined)?.['permissionDecisionReason']
      : output?.['reason'];
  expect(agent === 'claude-code' ? JSON.stringify(output) : output?.['decision']).toMatch(/deny/);
  expect(String(reason)).toContain(`field "${field}"`);
  expect(run.stderr).toContain(`field "${field}"`);
}

/** An event Vigil cannot even name: exit 0, the agent stopped, saying why. */
async function expectStops(
  agent: 'claude-code' | 'gemini-cli',
  input: object | string,
  field: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const run = await runHook(agent, input, env);
  expect(run.code).toBe(0);
  expect(printed(run)).toMatchObject({ continue: false });
  expect(String(printed(run)?.['stopReason'])).toContain(`field "${field}"`);
}

describe('vigil hook on bad input, failures and folders it must not checkpoint whole', () => {
  let base: string;
  let remove: () => Promise<void>;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let home: string;
  let session: RecordedSession;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-hook-safety-'));
    project = path.join(base, 'project');
    home = path.join(base, 'vigil-home');
    await mkdir(project, { recursive: true });
    await writeFile(path.join(project, 'a.txt'), 'a\n');
    await mkdir(path.join(base, 'user'), { recursive: true });
    env = { VIGIL_HOME: home, HOME: path.join(base, 'user'), HERMES_HOME: path.join(base, 'no-hermes') };
    session = { sessionId: 'safety-1', cwd: project, transcriptPath: path.join(base, 't.jsonl') };
  });
  afterEach(async () => {
    await remove();
  });

  it(
    'refuses a tool call it cannot read, naming the field; stops the agent on an event it cannot name; an unreadable event that gates nothing goes on',
    { timeout: 300_000 },
    async () => {
      await expectStops('claude-code', 'not json at all', '(stdin)', env);
      await expectStops('gemini-cli', '[1, 2]', '(stdin)', env);
      await expectStops('claude-code', { session_id: 's', cwd: project }, 'hook_event_name', env);
      await expectContinues(
        'claude-code',
        { ...claudeCodeEvents.prompt(session, 'x'), session_id: 42 },
        'session_id',
        env,
      );
      await expectDenied(
        'claude-code',
        claudeCodeEvents.preTool(session, 'Write', { content: 'x' }, 't1'),
        'tool_input.file_path',
        env,
      );
      await expectDenied(
        'gemini-cli',
        geminiCliEvents.preTool(session, 'run_shell_command', { command: ['rm'] }, ''),
        'tool_input.command',
        env,
      );
      await expectDenied(
        'gemini-cli',
        { ...geminiCliEvents.preTool(session, 'write_file', { file_path: 'a.txt' }, ''), tool_input: 'a.txt' },
        'tool_input',
        env,
      );
      await expectContinues(
        'claude-code',
        { ...claudeCodeEvents.prompt(session, 'x'), prompt: undefined },
        'prompt',
        env,
      );
      // A cwd that does not exist: Vigil cannot tell where the call acts, so it refuses it.
      await expectDenied(
        'claude-code',
        claudeCodeEvents.preTool({ ...session, cwd: path.join(base, 'gone') }, 'Bash', { command: 'ls' }, 't2'),
        'cwd',
        env,
      );

      // Future events and tools that change no files: accepted and ignored, in silence (Gemini CLI reads stdout as JSON: "{}").
      for (const [agent, event] of [
        ['claude-code', { ...claudeCodeEvents.stop(session), hook_event_name: 'SubagentStop' }],
        ['claude-code', claudeCodeEvents.preTool(session, 'Read', { file_path: path.join(project, 'a.txt') }, 't3')],
        [
          'claude-code',
          claudeCodeEvents.preTool(session, 'mcp__vigil__write_file', { path: 'a.txt', content: 'x' }, 't4'),
        ],
        ['gemini-cli', { ...geminiCliEvents.stop(session), hook_event_name: 'BeforeModel', llm_request: {} }],
        ['gemini-cli', geminiCliEvents.preTool(session, 'read_file', { file_path: 'a.txt' }, '')],
      ] as const) {
        const run = await runHook(agent, event, env);
        expect(run.code).toBe(0);
        expect(run.stdout.trim()).toBe(agent === 'claude-code' ? '' : '{}');
        expect(run.stderr).toBe('');
      }
      // None of it opened a session.
      expect(await readdir(path.join(home, 'sessions')).catch(() => [])).toEqual([]);
    },
  );

  it(
    'asks, saying why, when it cannot checkpoint before a change; hooks.onFailure "allow" lets it go on, and the call says so',
    { timeout: 300_000 },
    async () => {
      expect((await runVigil(['checkpoint', project], { env })).code).toBe(0);
      // The store cannot take objects any more (a folder of it replaced by a file): every checkpoint fails.
      await rm(path.join(home, 'checkpoints/store/objects'), { recursive: true });
      await writeFile(path.join(home, 'checkpoints/store/objects'), 'not a folder\n');
      await writeFile(path.join(project, 'a.txt'), 'a changed\n');
      const write = { file_path: path.join(project, 'a.txt'), content: 'b\n' };
      const claude = printed(
        await runHook('claude-code', claudeCodeEvents.preTool(session, 'Write', write, 't1'), env),
      );
      expect(claude).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask' } });
      expect(JSON.stringify(claude)).toMatch(/could not checkpoint before this change.*before Write failed/);
      const gemini = printed(
        await runHook(
          'gemini-cli',
          geminiCliEvents.preTool({ ...session, sessionId: 'safety-2' }, 'write_file', write, ''),
          env,
        ),
      );
      expect(gemini).toMatchObject({
        decision: 'ask',
        reason: expect.stringMatching(/could not checkpoint/) as unknown,
        systemMessage: expect.stringMatching(/could not checkpoint/) as unknown,
      });

      // The person allowed it in Claude Code's prompt: it ran, and is recorded as asked and allowed, its failed checkpoint said.
      await runHook(
        'claude-code',
        claudeCodeEvents.postTool(session, 'Write', write, 't1', { filePath: write.file_path, success: true }),
        env,
      );
      const [asked] = callsOf(await sessionHistory('claude-code-safety-1', env));
      expect(asked).toMatchObject({
        name: 'Write',
        decision: 'asked-allowed',
        checkpoints: [],
        checkpointProblems: [expect.stringMatching(/before Write failed/) as unknown],
      });

      await writeFile(path.join(home, 'config.json'), JSON.stringify({ hooks: { onFailure: 'allow' } }));
      expect(
        printed(await runHook('claude-code', claudeCodeEvents.preTool(session, 'Write', write, 't2'), env)),
      ).toBeUndefined();
      expect(
        printed(
          await runHook(
            'gemini-cli',
            geminiCliEvents.preTool(
              { ...session, sessionId: 'safety-2' },
              'replace',
              { ...write, old_string: 'a', new_string: 'b' },
              '',
            ),
            env,
          ),
        ),
      ).toEqual({ decision: 'allow' });
      // No result came for t2 before the turn ended: it is recorded as not reported, its missing checkpoint said.
      await runHook('claude-code', claudeCodeEvents.stop(session), env);
      const calls = callsOf(await sessionHistory('claude-code-safety-1', env));
      expect(calls[1]).toMatchObject({
        decision: 'allowed',
        result: {
          ok: false,
          error: { code: 'cancelled', message: expect.stringMatching(/never reported a result/) as unknown },
        },
      });
      expect(calls[1]?.checkpointProblems).toEqual([
        expect.stringMatching(/before Write failed/) as unknown,
        expect.stringMatching(/onFailure is "allow"/) as unknown,
      ]);
    },
  );

  it(
    'answers within its deadline when the core takes the call and never answers: ask before a change, go on otherwise',
    { timeout: 300_000 },
    async () => {
      // A "core" that accepts connections and never answers, named by a serve.json with a live pid.
      const silent: Server = createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        const address = silent.address();
        const port = typeof address === 'object' && address !== null ? address.port : 0;
        await mkdir(home, { recursive: true });
        await writeFile(
          path.join(home, 'serve.json'),
          JSON.stringify({ pid: process.pid, port, url: `http://127.0.0.1:${port}/`, token: 'silent' }),
        );
        const before = await runHook(
          'claude-code',
          claudeCodeEvents.preTool(session, 'Bash', { command: 'rm a.txt' }, 't1'),
          env,
          ['--deadline-ms', '3000'],
        );
        expect(before.code).toBe(0);
        expect(printed(before)).toMatchObject({
          hookSpecificOutput: {
            permissionDecision: 'ask',
            permissionDecisionReason: expect.stringMatching(/did not answer within 3 s/) as unknown,
          },
        });
        expect(before.stderr).toMatch(/did not answer within 3 s/);
        const prompt = await runHook('gemini-cli', geminiCliEvents.prompt(session, 'hello'), env, [
          '--deadline-ms',
          '3000',
        ]);
        expect(prompt.code).toBe(0);
        expect(printed(prompt)).toEqual({ continue: true });
        expect(prompt.stderr).toMatch(/did not answer within 3 s.*goes on|goes on/);
      } finally {
        silent.close();
      }
    },
  );

  it(
    'never checkpoints the home folder whole (said once per session); a file there is checkpointed at its own project, or refused as outside the workspace',
    { timeout: 300_000 },
    async () => {
      const user = env['HOME'] ?? '';
      const repo = path.join(user, 'repo');
      await mkdir(path.join(repo, '.git'), { recursive: true });
      await writeFile(path.join(repo, 'x.txt'), 'x\n');
      const atHome = { ...session, sessionId: 'home-1', cwd: user };
      const start = printed(await runHook('claude-code', claudeCodeEvents.sessionStart(atHome), env));
      expect(start).toEqual({
        systemMessage: expect.stringMatching(
          new RegExp(`^Vigil: ${user.replaceAll('/', '\\/')} is your home folder, which Vigil never checkpoints whole`),
        ) as unknown,
      });
      expect(printed(await runHook('claude-code', claudeCodeEvents.prompt(atHome, 'tidy up'), env))).toBeUndefined();

      for (const [id, file] of [
        ['t1', path.join(user, 'notes.txt')],
        ['t2', path.join(repo, 'x.txt')],
        ['t3', path.join(project, 'a.txt')],
      ] as const) {
        const input = { file_path: file, content: 'new\n' };
        const answer = printed(await runHook('claude-code', claudeCodeEvents.preTool(atHome, 'Write', input, id), env));
        // Claude Code obeys a deny: the refused Write never runs.
        if (JSON.stringify(answer ?? {}).includes('"deny"')) continue;
        await writeFile(file, 'new\n');
        await runHook(
          'claude-code',
          claudeCodeEvents.postTool(atHome, 'Write', input, id, { filePath: file, success: true }),
          env,
        );
      }
      const history = await sessionHistory('claude-code-home-1', env);
      const [notes, inRepo, outside] = callsOf(history);
      // A file in no project folder is outside the workspace: refused, as Vigil's own write_file refuses it.
      expect(notes).toMatchObject({ decision: 'blocked', checkpoints: [] });
      expect(notes?.reason).toMatch(/notes\.txt was refused: it is outside the session's workspace/);
      expect(inRepo?.checkpoints).toEqual([expect.objectContaining({ directory: repo, kind: 'created' })]);
      // A project with no repository and no checkpoints yet is no workspace root of its own: refused too.
      expect(outside).toMatchObject({ decision: 'blocked', checkpoints: [] });
      expect(history.session.roots).toEqual([user, repo]);
    },
  );

  it(
    "never checkpoints the file-system root whole either, said once per session; a command there is checkpointed at its target's own root",
    { timeout: 300_000 },
    async () => {
      const known = path.join(base, 'known');
      await mkdir(known);
      await writeFile(path.join(known, 'b.txt'), 'b\n');
      expect((await runVigil(['checkpoint', known], { env })).code).toBe(0);
      const fileSystemRoot = path.parse(base).root;
      const atRoot = { ...session, sessionId: 'root-1', cwd: fileSystemRoot };
      const start = printed(await runHook('claude-code', claudeCodeEvents.sessionStart(atRoot), env));
      expect(start).toEqual({
        systemMessage: expect.stringContaining(
          `${fileSystemRoot} is the root of the file system, which Vigil never checkpoints whole`,
        ) as unknown,
      });
      // Said once per session: a resumed start and the next events are silent about it.
      expect(printed(await runHook('claude-code', claudeCodeEvents.sessionStart(atRoot), env))).toBeUndefined();
      expect(printed(await runHook('claude-code', claudeCodeEvents.prompt(atRoot, 'clean up'), env))).toBeUndefined();

      const input = { command: `rm ${path.join(known, 'b.txt')}` };
      await runHook('claude-code', claudeCodeEvents.preTool(atRoot, 'Bash', input, 't1'), env);
      await rm(path.join(known, 'b.txt'));
      await runHook(
        'claude-code',
        claudeCodeEvents.postTool(atRoot, 'Bash', input, 't1', { stdout: '', stderr: '', interrupted: false }),
        env,
      );
      const [call] = callsOf(await sessionHistory('claude-code-root-1', env));
      // Only the target's own root: the command's folder, the file-system root, is never checkpointed.
      // Nothing changed since the checkpoint by hand, yet the turn gets a checkpoint (a row) of its own.
      expect(call?.checkpoints).toEqual([expect.objectContaining({ directory: known, kind: 'created' })]);
      const status = JSON.parse((await runVigil(['checkpoints', 'status', '--json'], { env })).stdout) as {
        directories: { dir: string }[];
      };
      expect(status.directories.map((directory) => directory.dir)).toEqual([known]);
    },
  );

  it(
    'checkpoints a path outside cwd at its own workspace root: a folder Vigil already checkpoints',
    { timeout: 300_000 },
    async () => {
      const other = path.join(base, 'other');
      await mkdir(other);
      await writeFile(path.join(other, 'b.txt'), 'b\n');
      expect((await runVigil(['checkpoint', other], { env })).code).toBe(0);
      const input = { command: `rm ${path.join(other, 'b.txt')}` };
      await runHook('claude-code', claudeCodeEvents.preTool(session, 'Bash', input, 't1'), env);
      await rm(path.join(other, 'b.txt'));
      await runHook(
        'claude-code',
        claudeCodeEvents.postTool(session, 'Bash', input, 't1', { stdout: '', stderr: '', interrupted: false }),
        env,
      );
      const history = await sessionHistory('claude-code-safety-1', env);
      expect(history.session.roots).toEqual([project, other]);
      // The command's own folder (as for every command that changes files) and the target's root, which holds the file as
      // it was: unchanged since the checkpoint by hand, it still gets the turn's own checkpoint (its row).
      expect(callsOf(history)[0]?.checkpoints).toEqual([
        expect.objectContaining({ directory: project, kind: 'created' }),
        expect.objectContaining({ directory: other, kind: 'created' }),
      ]);
    },
  );
});
