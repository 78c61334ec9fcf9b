/**
 * One hook event of Claude Code, Gemini CLI or Codex CLI as Vigil understands it, whichever agent sent it:
 * the agents' own stdin formats (claude-code-input.ts, gemini-cli-input.ts) are parsed into this,
 * which `vigil hook` relays to the core (`hooks:event`) and the core acts on. Pure data.
 */

/** The agents whose hooks `vigil hook` answers. */
export const hookAgents = ['claude-code', 'gemini-cli', 'codex'] as const;

/** One of the agents `vigil hook` answers. */
export type HookAgent = (typeof hookAgents)[number];

/** Each agent as people name it (`asking in Claude Code: …`). */
export const hookAgentNames: Readonly<Record<HookAgent, string>> = {
  'claude-code': 'Claude Code',
  'gemini-cli': 'Gemini CLI',
  codex: 'Codex CLI',
};

/**
 * The longest shell command Vigil assesses (1 MiB of text: a heredoc of a big file is within a
 * model's reach, and is still parsed whole for the hardline rules); a longer one is refused as too
 * long to assess, never let through unread. Here, beside the event's other shared facts, because
 * the contract's schema uses it too: in hook-tools.ts, it made every one-shot core load the hook's chunk.
 */
export const maxHookCommandChars = 1024 * 1024;

/** What an event means to Vigil; every other event of the agents is accepted and ignored. */
export const hookEventKinds = ['session-start', 'prompt', 'pre-tool', 'post-tool', 'stop', 'session-end'] as const;

/** session-start · prompt (a turn begins) · pre-tool · post-tool · stop (the turn ends) · session-end. */
export type HookEventKind = (typeof hookEventKinds)[number];

/** A tool call that may change files: a file tool (the file it names), a patch of several files, or a shell command. */
export type HookTool =
  | {
      readonly kind: 'file';
      /** The agent's own tool name (`Write`, `replace`). */
      readonly name: string;
      /** The file it changes, as the agent gave it (absolute, or relative to the event's cwd). */
      readonly path: string;
      readonly input: unknown;
      /** The agent's id of the call (Claude Code's `tool_use_id`); Gemini CLI gives none. */
      readonly callId?: string;
    }
  | {
      readonly kind: 'patch';
      /** Codex's `apply_patch`. */
      readonly name: string;
      /** Every file the patch adds, changes, deletes or moves (from and to), as the patch names them. */
      readonly paths: readonly string[];
      readonly input: unknown;
      readonly callId?: string;
    }
  | {
      readonly kind: 'shell';
      readonly name: string;
      readonly command: string;
      /** Where the command runs when the agent says (Gemini CLI's `dir_path`), relative to cwd or absolute. */
      readonly directory?: string;
      readonly input: unknown;
      readonly callId?: string;
    };

/** How a tool call ended, as the agent reported it. */
export type HookToolOutcome =
  { readonly ok: true; readonly response: unknown } | { readonly ok: false; readonly error: string };

/** One event, normalized. */
export interface HookEvent {
  readonly agent: HookAgent;
  readonly kind: HookEventKind;
  /** The agent's `session_id`. */
  readonly sessionId: string;
  /** The agent's working directory (absolute). */
  readonly cwd: string;
  readonly transcriptPath?: string;
  /** session-start: why it started (`startup`, `resume`, `clear`, `compact`). */
  readonly source?: string;
  /** session-end: why it ended (`exit`, `clear`, `logout`, …). */
  readonly reason?: string;
  /** prompt: the user's message, which titles the turn. */
  readonly prompt?: string;
  /** pre-tool and post-tool. */
  readonly tool?: HookTool;
  /** post-tool: what became of the call. */
  readonly outcome?: HookToolOutcome;
  /**
   * pre-tool: why no person can be asked through the agent, in words (Claude Code's
   * `bypassPermissions` or `dontAsk` mode, Gemini CLI run headless); absent when the agent asks its
   * person. Vigil then answers "deny" wherever it would have answered "ask".
   */
  readonly unattended?: string;
}

/** What Vigil decided about a tool call before it runs. */
export type HookDecision = 'allow' | 'ask' | 'deny';

/** What Vigil answers to one event. */
export interface HookAnswer {
  /** pre-tool only: Vigil's decision; absent when Vigil has none (a call it does not supervise). */
  readonly decision?: HookDecision;
  /** Why, in Vigil's words (shown to the agent or the person). */
  readonly reason?: string;
  /** Things the person is told once per session (a home folder never checkpointed whole). */
  readonly notices: readonly string[];
  /** `hooks.approveAllowed` in config.json: an "allow" also skips the agent's own permission prompt. */
  readonly isApproving?: boolean;
}

/** How `vigil hook` read one stdin document. */
export type ParsedHookInput =
  | { readonly kind: 'event'; readonly event: HookEvent }
  /** An event or tool Vigil does not act on (future versions of the agents add more): accepted, ignored. */
  | { readonly kind: 'ignored'; readonly name: string }
  /** Not an event Vigil can read: `field` names what is wrong; `eventKind` is what it was, when its name could be read. */
  | {
      readonly kind: 'invalid';
      readonly field: string;
      readonly message: string;
      readonly eventKind?: HookEventKind;
    };
