import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runVigil, type VigilRun } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';

let base: string;
let remove: () => Promise<void>;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-connect-codex-hooks-'));
  await mkdir(path.join(base, 'user'), { recursive: true });
  await mkdir(path.join(base, 'project'), { recursive: true });
});
afterEach(async () => {
  await remove();
});

const codexHome = (): string => path.join(base, 'codex-home');
const vigilHome = (): string => path.join(base, 'vigil-home');
const env = (): NodeJS.ProcessEnv => ({
  HOME: path.join(base, 'user'),
  CODEX_HOME: codexHome(),
  VIGIL_HOME: vigilHome(),
  HERMES_HOME: '',
});

function connect(args: readonly string[]): Promise<VigilRun> {
  return runVigil(['connect', ...args], { cwd: path.join(base, 'project'), env: env() });
}

/** A user's own Codex hooks.json (Codex reads Claude Code's hooks format), formatted by hand. */
const usersHooks = `{
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "/usr/local/bin/audit-bash", "timeout": 10 }] }
    ],
    "Stop": [{ "hooks": [{ "type": "command", "command": "notify-send done" }] }]
  }
}
`;

type Hooks = {
  hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>;
} & Record<string, unknown>;

const commandsOf = (document: Hooks, event: string): unknown[] =>
  (document.hooks[event] ?? []).flatMap((group) => group.hooks.map((hook) => hook['command']));

describe('vigil connect codex --hooks', () => {
  it(
    "merges Vigil's hooks into $CODEX_HOME/hooks.json beside the user's, in Codex's format; once only; --remove restores the file byte for byte",
    { timeout: 300_000 },
    async () => {
      const file = path.join(codexHome(), 'hooks.json');
      await mkdir(codexHome(), { recursive: true });
      await writeFile(file, usersHooks);

      const written = await connect(['codex', '--hooks', '--write']);
      expect(written.code, written.stderr).toBe(0);
      expect(written.stdout).toContain(`Wrote ${file}.`);
      expect(written.stdout).toContain('trust them in /hooks');
      expect(written.stdout).toContain('Codex takes only "deny" from a hook');
      const document = JSON.parse(await readFile(file, 'utf8')) as Hooks;
      expect(Object.keys(document)).toEqual(['hooks']);
      expect(commandsOf(document, 'PreToolUse')[0]).toBe('/usr/local/bin/audit-bash');
      expect(commandsOf(document, 'Stop')[0]).toBe('notify-send done');
      const vigil = ` hook codex --home ${vigilHome()}`;
      for (const event of ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd'])
        expect(
          commandsOf(document, event).filter((command) => String(command).endsWith(vigil)),
          event,
        ).toHaveLength(1);
      for (const event of ['PreToolUse', 'PostToolUse'])
        expect(document.hooks[event]?.at(-1)).toEqual({
          matcher: 'Bash|apply_patch',
          hooks: [{ type: 'command', command: expect.stringContaining(vigil) as unknown, timeout: 30 }],
        });
      expect(document.hooks['SessionStart']?.[0]).not.toHaveProperty('matcher');

      const again = await connect(['codex', '--hooks', '--write']);
      expect(again.stdout).toContain('already holds these hooks; nothing was written');

      const removed = await connect(['codex', '--hooks', '--remove']);
      expect(removed.code, removed.stderr).toBe(0);
      expect(await readFile(file, 'utf8')).toBe(usersHooks);
    },
  );

  it(
    "writes the project's .codex/hooks.json with --project, and says Codex reads it only in a trusted project",
    { timeout: 300_000 },
    async () => {
      const project = path.join(base, 'project');
      const written = await connect(['codex', '--hooks', '--project', '--write']);
      expect(written.code, written.stderr).toBe(0);
      expect(written.stdout).toContain('Codex reads it only in a project it trusts');
      const document = JSON.parse(await readFile(path.join(project, '.codex', 'hooks.json'), 'utf8')) as Hooks;
      expect(commandsOf(document, 'PreToolUse')).toHaveLength(1);
      const removed = await connect(['codex', '--hooks', '--project', '--remove']);
      expect(removed.stdout).toContain('it did not exist before Vigil wrote it, so it is removed');
    },
  );
});
