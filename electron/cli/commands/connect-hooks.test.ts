import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeCodeEvents } from '../../hooks/test-support/recorded-events';
import { runVigil, type VigilRun } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';

let base: string;
let remove: () => Promise<void>;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-connect-hooks-'));
  await mkdir(path.join(base, 'user'), { recursive: true });
  await mkdir(path.join(base, 'project'), { recursive: true });
});
afterEach(async () => {
  await remove();
});

const user = (): string => path.join(base, 'user');
const vigilHome = (): string => path.join(base, 'vigil-home');
const env = (): NodeJS.ProcessEnv => ({ HOME: user(), VIGIL_HOME: vigilHome(), HERMES_HOME: '' });

function connect(args: readonly string[]): Promise<VigilRun> {
  return runVigil(['connect', ...args], { cwd: path.join(base, 'project'), env: env() });
}

/** A user's own settings, formatted by hand (4 spaces, a one-line list), with a hook of theirs. */
const usersSettings = `{
    "permissions": { "allow": ["Bash(npm test)"] },
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{ "type": "command", "command": "/usr/local/bin/audit-bash --strict" }]
            }
        ],
        "Stop": [{ "hooks": [{ "type": "command", "command": "notify-send done" }] }]
    },
    "model": "opus"
}
`;

type Settings = {
  hooks: Record<string, { matcher?: string; hooks: { command: string; timeout?: number; name?: string }[] }[]>;
} & Record<string, unknown>;

const readSettings = async (file: string): Promise<Settings> => JSON.parse(await readFile(file, 'utf8')) as Settings;
/** Every command of an event, in order. */
const commandsOf = (settings: Settings, event: string): string[] =>
  (settings.hooks[event] ?? []).flatMap((group) => group.hooks.map((hook) => hook.command));
const isVigil = (command: string): boolean => / hook (claude-code|gemini-cli) /.test(command);

describe('vigil connect claude-code|gemini-cli --hooks', () => {
  it(
    "merges into user settings that hold the user's hooks, keeps them, never duplicates its own, and --remove restores the file byte for byte",
    { timeout: 300_000 },
    async () => {
      const file = path.join(user(), '.claude/settings.json');
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, usersSettings);

      const printedOnly = await connect(['claude-code', '--hooks']);
      expect(printedOnly.code, printedOnly.stderr).toBe(0);
      expect(await readFile(file, 'utf8')).toBe(usersSettings);
      expect(printedOnly.stdout).toContain(`Configuration for ~/.claude/settings.json (${file})`);

      const written = await connect(['claude-code', '--hooks', '--write']);
      expect(written.code, written.stderr).toBe(0);
      expect(written.stdout).toMatch(/\+\s+"SessionStart": \[/);
      const settings = await readSettings(file);
      expect(settings['model']).toBe('opus');
      expect(commandsOf(settings, 'PreToolUse')[0]).toBe('/usr/local/bin/audit-bash --strict');
      expect(commandsOf(settings, 'Stop')[0]).toBe('notify-send done');
      for (const event of ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd'])
        expect(commandsOf(settings, event).filter(isVigil), event).toHaveLength(1);
      expect(settings.hooks['PreToolUse']?.[1]).toMatchObject({
        matcher: 'Write|Edit|MultiEdit|NotebookEdit|Bash',
        hooks: [{ type: 'command', timeout: 30 }],
      });
      // Issue 30, item 7: Claude Code's own sandbox on, with Vigil's data folder unreadable in it.
      expect(settings['sandbox']).toEqual({
        enabled: true,
        allowUnsandboxedCommands: false,
        filesystem: { denyRead: [vigilHome()] },
      });
      expect(settings['permissions']).toEqual({
        allow: ['Bash(npm test)'],
        deny: [`Read(/${vigilHome()}/**)`, `Edit(/${vigilHome()}/**)`],
      });

      // Again: the same entry is there, so nothing is written.
      const again = await connect(['claude-code', '--hooks', '--write']);
      expect(again.stdout).toContain('already holds these hooks; nothing was written');
      expect(await readSettings(file)).toEqual(settings);

      const removed = await connect(['claude-code', '--hooks', '--remove']);
      expect(removed.code, removed.stderr).toBe(0);
      expect(removed.stdout).toContain('back byte for byte as it was before Vigil wrote it');
      expect(await readFile(file, 'utf8')).toBe(usersSettings);
      expect(await readdir(path.join(vigilHome(), 'connect'))).toEqual([]);
    },
  );

  it(
    'writes a command the agent can run: through a shell, with a recorded event on stdin, it opens the session',
    { timeout: 300_000 },
    async () => {
      expect((await connect(['claude-code', '--hooks', '--write'])).code).toBe(0);
      const settings = await readSettings(path.join(user(), '.claude/settings.json'));
      const [command] = commandsOf(settings, 'SessionStart');
      const project = path.join(base, 'project');
      // A CA bundle in the agent's environment is not read: Node would warn that this one is missing.
      const child = execFile('/bin/sh', ['-c', command ?? ''], {
        env: { ...process.env, HOME: user(), VIGIL_HOME: '', NODE_EXTRA_CA_CERTS: path.join(base, 'no-such-ca.pem') },
      });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdin?.end(
        JSON.stringify(
          claudeCodeEvents.sessionStart({
            sessionId: 'from-settings',
            cwd: project,
            transcriptPath: path.join(base, 't.jsonl'),
          }),
        ),
      );
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code, stderr).toBe(0);
      expect(stderr).not.toContain('extra certs');
      // --home in the command names the data folder, whatever the agent's environment says.
      expect(existsSync(path.join(vigilHome(), 'sessions/claude-code-from-settings.jsonl'))).toBe(true);
    },
  );

  it(
    'creates a project file for gemini-cli, and --remove deletes it again, as it was: absent',
    { timeout: 300_000 },
    async () => {
      const file = path.join(base, 'project/.gemini/settings.json');
      const written = await connect(['gemini-cli', '--hooks', '--project', '--write']);
      expect(written.code, written.stderr).toBe(0);
      const settings = await readSettings(file);
      expect(Object.keys(settings.hooks)).toEqual([
        'SessionStart',
        'BeforeAgent',
        'BeforeTool',
        'AfterTool',
        'AfterAgent',
        'SessionEnd',
      ]);
      expect(settings.hooks['BeforeTool']?.[0]).toMatchObject({
        matcher: 'write_file|replace|run_shell_command',
        hooks: [{ name: 'vigil', type: 'command', timeout: 30_000 }],
      });
      expect(commandsOf(settings, 'AfterTool')[0]).toMatch(/ hook gemini-cli --home /);
      const removed = await connect(['gemini-cli', '--hooks', '--project', '--remove']);
      expect(removed.stdout).toContain('it did not exist before Vigil wrote it, so it is removed');
      expect(existsSync(file)).toBe(false);
    },
  );

  it(
    "a file changed since Vigil wrote it: --write replaces its entry (and an older install's), --remove takes only Vigil's out",
    { timeout: 300_000 },
    async () => {
      const file = path.join(user(), '.claude/settings.json');
      await mkdir(path.dirname(file), { recursive: true });
      const older = { type: 'command', command: '/opt/old-vigil/out/main/cli.js hook claude-code' };
      await writeFile(
        file,
        JSON.stringify(
          { hooks: { SessionStart: [{ hooks: [older, { type: 'command', command: 'echo hi' }] }] } },
          null,
          2,
        ),
      );
      expect((await connect(['claude-code', '--hooks', '--write'])).code).toBe(0);
      const settings = await readSettings(file);
      expect(commandsOf(settings, 'SessionStart')).toEqual([
        'echo hi',
        expect.stringMatching(/vigil\.ts hook claude-code --home/) as unknown,
      ]);

      // The user edits the file afterwards: a setting and a hook of their own.
      settings['model'] = 'sonnet';
      settings.hooks['UserPromptSubmit']?.push({ hooks: [{ command: 'log-prompt' }] });
      await writeFile(file, JSON.stringify(settings, null, 2));
      // Written again: Vigil's entry moves after the user's new hook, still once per event.
      expect((await connect(['claude-code', '--hooks', '--write'])).code).toBe(0);
      const merged = await readSettings(file);
      expect(commandsOf(merged, 'UserPromptSubmit')).toEqual([
        'log-prompt',
        expect.stringMatching(/ hook claude-code /) as unknown,
      ]);
      expect(merged['model']).toBe('sonnet');

      const removed = await connect(['claude-code', '--hooks', '--remove']);
      expect(removed.stdout).toContain(
        'it changed since Vigil wrote it, so only Vigil\u2019s hooks were taken out and everything else kept',
      );
      expect(await readSettings(file)).toEqual({
        hooks: {
          SessionStart: [{ hooks: [{ type: 'command', command: 'echo hi' }] }],
          UserPromptSubmit: [{ hooks: [{ command: 'log-prompt' }] }],
        },
        model: 'sonnet',
      });
      expect((await connect(['claude-code', '--hooks', '--remove'])).stdout).toContain("holds no hooks of Vigil's");
    },
  );

  it('never rewrites a file it cannot parse, and says how', { timeout: 300_000 }, async () => {
    const file = path.join(user(), '.gemini/settings.json');
    await mkdir(path.dirname(file), { recursive: true });
    const text = '{\n  // my settings\n  "theme": "dark"\n}\n';
    await writeFile(file, text);
    const run = await connect(['gemini-cli', '--hooks', '--write']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/holds comments, which a rewrite would drop/);
    expect(await readFile(file, 'utf8')).toBe(text);
    const wrong = await connect(['hermes', '--hooks']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--hooks is for claude-code and gemini-cli');
  });
});
