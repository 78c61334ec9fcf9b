import type { HookAgent } from '../hooks/hook-event';
import { hookToolMatcher } from '../hooks/hook-tools';

/**
 * The hooks configuration `vigil connect claude-code|gemini-cli|codex --hooks` prints and merges
 * into the agent's settings.json (Codex CLI: its hooks.json, in the same shape): one `vigil hook AGENT` command on each event Vigil acts on, the tool events
 * matched to the tools that change files. Pure data in, data out.
 */

/** How long the agent lets one `vigil hook` run, in the agent's own unit (Claude Code and Codex CLI: seconds; Gemini CLI: ms). `vigil hook` answers within 25 s. */
export const hookTimeouts: Readonly<Record<HookAgent, number>> = { 'claude-code': 30, 'gemini-cli': 30_000, codex: 30 };

/** Claude Code's hook events Vigil listens to (Codex CLI uses the same names). */
const claudeCodeEvents: readonly (readonly [string, boolean])[] = [
  ['SessionStart', false],
  ['UserPromptSubmit', false],
  ['PreToolUse', true],
  ['PostToolUse', true],
  ['Stop', false],
  ['SessionEnd', false],
];

/** The events Vigil listens to, per agent, and whether each is a tool event (matched to the tools that change files). */
const hookedEvents: Readonly<Record<HookAgent, readonly (readonly [string, boolean])[]>> = {
  'claude-code': claudeCodeEvents,
  'gemini-cli': [
    ['SessionStart', false],
    ['BeforeAgent', false],
    ['BeforeTool', true],
    ['AfterTool', true],
    ['AfterAgent', false],
    ['SessionEnd', false],
  ],
  // Codex CLI's hooks take Claude Code's event names and format.
  codex: claudeCodeEvents,
};

/** One matcher group of an event: `{ matcher?, hooks: [ { type: "command", command, timeout, … } ] }`. */
export type HookGroup = Readonly<Record<string, unknown>>;

/** The `hooks` object Vigil adds: each event's one group running `command`. */
export function vigilHooks(agent: HookAgent, command: string): Readonly<Record<string, readonly HookGroup[]>> {
  const hook =
    agent !== 'gemini-cli'
      ? { type: 'command', command, timeout: hookTimeouts[agent] }
      : {
          name: 'vigil',
          type: 'command',
          command,
          timeout: hookTimeouts[agent],
          description: 'Vigil: checkpoints before changes, its policy on shell commands, the session live in Vigil',
        };
  const groups: Record<string, readonly HookGroup[]> = {};
  for (const [event, isToolEvent] of hookedEvents[agent])
    groups[event] = [isToolEvent ? { matcher: hookToolMatcher(agent), hooks: [hook] } : { hooks: [hook] }];
  return groups;
}

/**
 * Whether a hook command is Vigil's for this agent (any install: the built `cli.cjs` or `cli.js`, the sources'
 * `vigil.ts`, a `vigil` on PATH): what `--write` replaces and `--remove` takes out, and nothing else.
 */
export function isVigilHookCommand(command: unknown, agent: HookAgent): boolean {
  if (typeof command !== 'string') return false;
  return new RegExp(`(^|[\\s'"/\\\\])(vigil|cli\\.c?js|vigil\\.ts)['"]?\\s+hook\\s+${agent}(\\s|$)`).test(command);
}

/** Where an agent keeps its settings, said for people. */
export const hookSettingsHints: Readonly<
  Record<HookAgent, { readonly name: string; readonly user: string; readonly project: string; readonly reload: string }>
> = {
  'claude-code': {
    name: 'Claude Code',
    user: '~/.claude/settings.json',
    project:
      '.claude/settings.local.json in the project (the local, uncommitted one: the command names this machine\u2019s paths)',
    reload: 'Claude Code reads its hooks when a session starts: start a new session (or review them with /hooks).',
  },
  'gemini-cli': {
    name: 'Gemini CLI',
    user: '~/.gemini/settings.json',
    project: '.gemini/settings.json in the project',
    reload:
      'Gemini CLI reads its hooks when it starts: restart it (/hooks panel lists them). Releases before hooks were on by default need "hooksConfig": { "enabled": true } (older ones: "tools": { "enableHooks": true }).',
  },
  codex: {
    name: 'Codex CLI',
    user: '$CODEX_HOME/hooks.json (default ~/.codex/hooks.json)',
    project: '.codex/hooks.json in the project (Codex reads it only in a project it trusts)',
    reload:
      'Codex CLI runs a new or changed hook only after you trust it: start codex, which says that hooks need review, and trust them in /hooks (`codex exec --dangerously-bypass-hook-trust` runs them unreviewed, for automation that vets its hooks itself). Codex takes only "deny" from a hook: a call Vigil would ask a person about is refused, with Vigil\u2019s reason and how to run it yourself.',
  },
};
