import type { HookAgent, HookEventKind, HookToolOutcome } from './hook-event';
import { isJsonObject, optionalText, optionalTextOf, type JsonObject } from './hook-fields';

/** What differs between the agents' stdin formats. */
export interface AgentInputFormat {
  /** The agent's event names Vigil acts on, and what each means. */
  readonly kinds: Readonly<Record<string, HookEventKind>>;
  /** How a finished tool call ended (post-tool). */
  outcome(name: string, record: JsonObject): HookToolOutcome;
  /** session-start's source and session-end's reason, where the agent puts them. */
  readonly sourceKeys: readonly string[];
  readonly reasonKeys: readonly string[];
}

/**
 * Claude Code (code.claude.com/docs/en/hooks): SessionStart (`source`), UserPromptSubmit
 * (`prompt`), PreToolUse (`tool_name`, `tool_input`, `tool_use_id`), PostToolUse (the same and
 * `tool_response`), PostToolUseFailure (`error`, `is_interrupt`), Stop, SessionEnd (`reason`).
 */
const claudeCode: AgentInputFormat = {
  kinds: {
    SessionStart: 'session-start',
    UserPromptSubmit: 'prompt',
    PreToolUse: 'pre-tool',
    PostToolUse: 'post-tool',
    PostToolUseFailure: 'post-tool',
    Stop: 'stop',
    SessionEnd: 'session-end',
  },
  outcome(name, record) {
    if (name !== 'PostToolUseFailure') return { ok: true, response: record['tool_response'] ?? null };
    const error = optionalText(record, 'error') ?? 'the tool failed (Claude Code gave no message)';
    return { ok: false, error: record['is_interrupt'] === true ? `interrupted: ${error}` : error };
  },
  sourceKeys: ['source'],
  reasonKeys: ['reason'],
};

/** Gemini CLI's `tool_response.error`: an object with a message (or a string) when the tool failed. */
function geminiError(response: unknown): string | undefined {
  if (!isJsonObject(response)) return undefined;
  const error = response['error'];
  if (error === undefined || error === null || error === false) return undefined;
  if (typeof error === 'string') return error;
  if (isJsonObject(error) && typeof error['message'] === 'string') return error['message'];
  return 'the tool failed (Gemini CLI gave no message)';
}

/**
 * Gemini CLI (geminicli.com/docs/hooks/reference): SessionStart, BeforeAgent (`prompt`),
 * BeforeTool (`tool_name`, `tool_input`), AfterTool (the same and `tool_response` with `llmContent`,
 * `returnDisplay` and an optional `error`), AfterAgent, SessionEnd. The reference names the start's
 * and end's cause `source` and `reason`; other pages of its documentation say `trigger`: both are read.
 */
const geminiCli: AgentInputFormat = {
  kinds: {
    SessionStart: 'session-start',
    BeforeAgent: 'prompt',
    BeforeTool: 'pre-tool',
    AfterTool: 'post-tool',
    AfterAgent: 'stop',
    SessionEnd: 'session-end',
  },
  outcome(_name, record) {
    const response = record['tool_response'] ?? null;
    const error = geminiError(response);
    return error === undefined ? { ok: true, response } : { ok: false, error };
  },
  sourceKeys: ['source', 'trigger'],
  reasonKeys: ['reason', 'trigger'],
};

/**
 * Codex CLI (0.171; its hook schemas ship in the binary): Claude Code's events and fields —
 * SessionStart (`source`), UserPromptSubmit (`prompt`), PreToolUse and PostToolUse (`tool_name`,
 * `tool_input`, `tool_use_id`; PostToolUse's `tool_response` is the tool's output text), Stop,
 * SessionEnd (`reason`) — with `turn_id` and `model` added. It has no PostToolUseFailure, and its
 * output says nothing of success: a call that failed before it ran (an apply_patch whose file is
 * missing) sends no PostToolUse at all, and is recorded at the turn's end as not reported.
 */
const codex: AgentInputFormat = {
  kinds: {
    SessionStart: 'session-start',
    UserPromptSubmit: 'prompt',
    PreToolUse: 'pre-tool',
    PostToolUse: 'post-tool',
    Stop: 'stop',
    SessionEnd: 'session-end',
  },
  outcome(_name, record) {
    return { ok: true, response: record['tool_response'] ?? null };
  },
  sourceKeys: ['source'],
  reasonKeys: ['reason'],
};

/** Each agent's format. */
export const agentInputFormats: Readonly<Record<HookAgent, AgentInputFormat>> = {
  'claude-code': claudeCode,
  'gemini-cli': geminiCli,
  codex,
};

/** A cause field (source, reason) in one of its spellings. */
export function causeOf(record: JsonObject, keys: readonly string[]): string | undefined {
  const value = optionalTextOf(record, keys);
  return value === undefined || value === '' ? undefined : value;
}
