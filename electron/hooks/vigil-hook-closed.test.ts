import { spawn } from 'node:child_process';
import { access, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { childEnv, collectRun, repoRoot, tsxLoader, vigilEntry, type VigilRun } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import { callsOf, printed, runHook, sessionHistory } from './test-support/hook-runs';
import { claudeCodeEvents, geminiCliEvents, type RecordedSession } from './test-support/recorded-events';

const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

/** Claude Code's PreToolUse answer: the decision and its reason. */
function claudeDecision(run: VigilRun): { decision?: unknown; reason: string } {
  const output = printed(run)?.['hookSpecificOutput'] as Record<string, unknown> | undefined;
  return { decision: output?.['permissionDecision'], reason: String(output?.['permissionDecisionReason']) };
}

/**
 * `vigil hook gemini-cli` run as Gemini CLI runs it headless: a real process named `gemini.js`,
 * started with `-p` and with no terminal, spawns the hook through a shell and passes the event on.
 */
async function runUnderHeadlessGemini(base: string, event: object, env: NodeJS.ProcessEnv): Promise<VigilRun> {
  const fake = path.join(base, 'bin', 'gemini.js');
  await mkdir(path.dirname(fake), { recursive: true });
  const hook = [process.execPath, '--import', tsxLoader, vigilEntry, 'hook', 'gemini-cli'].map((arg) => `'${arg}'`);
  await writeFile(
    fake,
    `const { spawn } = require('node:child_process');
const child = spawn('/bin/sh', ['-c', ${JSON.stringify(hook.join(' '))}], { stdio: ['pipe', 'inherit', 'inherit'] });
child.stdin.end(process.env.EVENT);
child.on('close', (code) => process.exit(code ?? 1));
`,
  );
  const child = spawn(process.execPath, [fake, '-p', 'do it'], {
    cwd: repoRoot,
    env: childEnv({ ...env, EVENT: JSON.stringify(event) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collectRun(child);
}

describe('vigil hook fails closed, with the checks of Vigil’s own tools', () => {
  let base: string;
  let remove: () => Promise<void>;
  let project: string;
  let user: string;
  let home: string;
  let env: NodeJS.ProcessEnv;
  let session: RecordedSession;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-hook-closed-'));
    project = path.join(base, 'project');
    user = path.join(base, 'user');
    home = path.join(base, 'vigil-home');
    await mkdir(path.join(project, '.git'), { recursive: true });
    await writeFile(path.join(project, 'a.txt'), 'a\n');
    await mkdir(path.join(user, '.ssh'), { recursive: true });
    await mkdir(home, { recursive: true });
    env = { VIGIL_HOME: home, HOME: user, HERMES_HOME: path.join(base, 'no-hermes') };
    session = { sessionId: 'closed-1', cwd: project, transcriptPath: path.join(base, 't.jsonl') };
  });
  afterEach(async () => {
    await remove();
  });

  it(
    'H1: refuses a Write or write_file of a protected location, Vigil’s folder, a path outside the workspace or under a deny rule, even with approveAllowed',
    { timeout: 300_000 },
    async () => {
      await writeFile(
        path.join(home, 'config.json'),
        JSON.stringify({
          hooks: { approveAllowed: true },
          policy: { rules: [{ effect: 'deny', tool: 'write_file', path: 'secrets/**' }] },
        }),
      );
      const cases = [
        [path.join(user, '.ssh', 'authorized_keys'), /inside .*\.ssh \(SSH keys\)/],
        [path.join(home, 'config.json'), /inside .*vigil-home \(protected by Vigil\)/],
        ['/etc/cron.d/x', /inside \/etc \(system configuration\)/],
        [
          path.join(project, 'secrets', 'key.txt'),
          /Refused by your rule "deny" for tool write_file, path secrets\/\*\*/,
        ],
        [path.join(base, 'elsewhere', 'x.txt'), /outside the session's workspace/],
      ] as const;
      let id = 0;
      for (const [file, rule] of cases) {
        id += 1;
        const input = { file_path: file, content: 'ssh-ed25519 AAAA attacker\n' };
        const answer = claudeDecision(
          await runHook('claude-code', claudeCodeEvents.preTool(session, 'Write', input, `w${id}`), env),
        );
        expect(answer.decision, file).toBe('deny');
        expect(answer.reason, file).toMatch(rule);
        expect(answer.reason, file).toContain(file.startsWith('/etc') ? '/etc/cron.d/x' : path.basename(file));
      }
      // Edit (a patch) gets the same checks.
      const edit = { file_path: path.join(user, '.ssh', 'authorized_keys'), old_string: 'a', new_string: 'b' };
      expect(
        claudeDecision(await runHook('claude-code', claudeCodeEvents.preTool(session, 'Edit', edit, 'e1'), env))
          .decision,
      ).toBe('deny');
      // Gemini CLI's write_file of Vigil's config: refused too, never {"decision":"allow"}.
      const gemini = printed(
        await runHook(
          'gemini-cli',
          geminiCliEvents.preTool(
            { ...session, sessionId: 'closed-g' },
            'write_file',
            { file_path: path.join(home, 'config.json'), content: '{}' },
            '',
          ),
          env,
        ),
      );
      expect(gemini).toMatchObject({
        decision: 'deny',
        reason: expect.stringMatching(/protected by Vigil/) as unknown,
      });

      // Nothing was written or checkpointed before a refusal; each is on record as blocked.
      expect(await exists(path.join(user, '.ssh', 'authorized_keys'))).toBe(false);
      expect(await exists(path.join(project, 'secrets'))).toBe(false);
      // No directory has a timeline: no checkpoint was taken for any of them.
      expect(await readdir(path.join(home, 'checkpoints', 'dirs')).catch(() => [])).toEqual([]);
      expect(await readdir(path.join(home, 'checkpoints', 'store', 'refs', 'vigil')).catch(() => [])).toEqual([]);
      const calls = callsOf(await sessionHistory('claude-code-closed-1', env));
      expect(calls.map((call) => call.decision)).toEqual(Array(cases.length + 1).fill('blocked'));
      // A Write inside the workspace is still answered allow (approveAllowed), and checkpointed first.
      const inside = { file_path: path.join(project, 'a.txt'), content: 'b\n' };
      expect(
        claudeDecision(await runHook('claude-code', claudeCodeEvents.preTool(session, 'Write', inside, 'ok1'), env))
          .decision,
      ).toBe('allow');
    },
  );

  it(
    'H2: refuses what it cannot assess — a malformed tool call, a cwd missing, relative or gone — and still parses a long command',
    { timeout: 300_000 },
    async () => {
      const heredoc = `cat > big.txt <<'EOF'\n${'x'.repeat(70 * 1024)}\nEOF\nrm -rf ~`;
      const long = claudeDecision(
        await runHook('claude-code', claudeCodeEvents.preTool(session, 'Bash', { command: heredoc }, 'l1'), env),
      );
      expect(long.decision).toBe('deny');
      expect(long.reason).toMatch(/never runs this command.*home folder/);
      const tooLong = claudeDecision(
        await runHook(
          'claude-code',
          claudeCodeEvents.preTool(session, 'Bash', { command: `echo ${'y'.repeat(1024 * 1024 + 1)}` }, 'l2'),
          env,
        ),
      );
      expect(tooLong.decision).toBe('deny');
      expect(tooLong.reason).toMatch(/more than the 1048576 Vigil can assess/);

      const refusedFor = async (event: object, field: string): Promise<void> => {
        const run = await runHook('claude-code', event, env);
        expect(run.code).toBe(0);
        const answer = claudeDecision(run);
        expect(answer.decision, field).toBe('deny');
        expect(answer.reason, field).toContain(`field "${field}"`);
      };
      await refusedFor(claudeCodeEvents.preTool(session, 'Write', { content: 'x' }, 'm1'), 'tool_input.file_path');
      await refusedFor(claudeCodeEvents.preTool(session, 'Bash', { command: ['rm'] }, 'm2'), 'tool_input.command');
      await refusedFor(
        { ...claudeCodeEvents.preTool(session, 'Bash', { command: 'rm a.txt' }, 'm3'), cwd: undefined },
        'cwd',
      );
      await refusedFor(
        claudeCodeEvents.preTool({ ...session, cwd: 'project' }, 'Bash', { command: 'ls' }, 'm4'),
        'cwd',
      );
      await refusedFor(
        claudeCodeEvents.preTool({ ...session, cwd: path.join(base, 'gone') }, 'Bash', { command: 'ls' }, 'm5'),
        'cwd',
      );
      const gemini = printed(
        await runHook(
          'gemini-cli',
          geminiCliEvents.preTool({ ...session, cwd: 'rel' }, 'run_shell_command', { command: 'rm a.txt' }, ''),
          env,
        ),
      );
      expect(gemini).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/field "cwd"/) as unknown });
      // Input whose event cannot even be named stops the agent, saying why, rather than "continue".
      expect(printed(await runHook('claude-code', 'not json', env))).toEqual({
        continue: false,
        stopReason: expect.stringMatching(/^Vigil cannot read this hook event/) as unknown,
      });
      expect(await exists(path.join(project, 'big.txt'))).toBe(false);
      expect(await exists(path.join(project, 'a.txt'))).toBe(true);
    },
  );

  it(
    'bypass mode: every "ask" becomes a deny that says how to run it by hand, recorded as blocked, with no checkpoint',
    { timeout: 300_000 },
    async () => {
      const bypass = (event: object, mode: string): object => ({ ...event, permission_mode: mode });
      // In the default mode Vigil asks about removing .git.
      const asked = claudeDecision(
        await runHook('claude-code', claudeCodeEvents.preTool(session, 'Bash', { command: 'rm -rf .git' }, 'b0'), env),
      );
      expect(asked.decision).toBe('ask');
      for (const [id, mode] of [
        ['b1', 'bypassPermissions'],
        ['b2', 'dontAsk'],
      ] as const) {
        const answer = claudeDecision(
          await runHook(
            'claude-code',
            bypass(claudeCodeEvents.preTool(session, 'Bash', { command: 'rm -rf .git' }, id), mode),
            env,
          ),
        );
        expect(answer.decision, mode).toBe('deny');
        expect(answer.reason, mode).toContain(`permission mode "${mode}"`);
        expect(answer.reason, mode).toContain(`run it yourself in a terminal in ${project}: rm -rf .git`);
      }
      // The refused calls ran nowhere: the post-tool never comes; the log holds them as blocked, never asked-allowed.
      await runHook('claude-code', claudeCodeEvents.stop(session), env);
      const calls = callsOf(await sessionHistory('claude-code-closed-1', env));
      const refused = calls.filter((call) => call.callId === 'b1' || call.callId === 'b2');
      expect(refused.map((call) => [call.decision, call.checkpoints])).toEqual([
        ['blocked', []],
        ['blocked', []],
      ]);
      expect(calls.some((call) => call.decision === 'asked-allowed')).toBe(false);
    },
  );

  it(
    'headless Gemini CLI: an "ask" becomes a deny with the reason, never a silent end; interactive runs still ask',
    { timeout: 300_000 },
    async () => {
      const eventOf = (sessionId: string): object =>
        geminiCliEvents.preTool({ ...session, sessionId }, 'run_shell_command', { command: 'rm -rf .git' }, '');
      const headless = await runUnderHeadlessGemini(base, eventOf('g1'), env);
      expect(headless.code).toBe(0);
      expect(printed(headless)).toMatchObject({
        decision: 'deny',
        reason: expect.stringMatching(
          /Gemini CLI runs headless \(gemini -p\).*run it yourself in a terminal/,
        ) as unknown,
      });
      // Started by anything but Gemini CLI (as in these tests), a person is assumed: Gemini's own confirmation asks.
      expect(printed(await runHook('gemini-cli', eventOf('g2'), env))).toMatchObject({ decision: 'ask' });
      // In CI, Gemini CLI is headless whatever its terminal.
      expect(printed(await runHook('gemini-cli', eventOf('g3'), { ...env, CI: 'true' }))).toMatchObject({
        decision: 'deny',
        reason: expect.stringMatching(/CI is set/) as unknown,
      });
      expect(await exists(path.join(project, '.git'))).toBe(true);
    },
  );
});
