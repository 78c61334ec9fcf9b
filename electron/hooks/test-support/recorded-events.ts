/**
 * Hook events exactly as Claude Code and Gemini CLI write them on a hook's stdin (their documented
 * formats: code.claude.com/docs/en/hooks, geminicli.com/docs/hooks/reference), for one session.
 */

/** The session the events belong to. */
export interface RecordedSession {
  readonly sessionId: string;
  readonly cwd: string;
  readonly transcriptPath: string;
}

/** One agent's events, as functions of the session and the event's own fields. */
export interface AgentEvents {
  sessionStart(session: RecordedSession): object;
  prompt(session: RecordedSession, prompt: string): object;
  preTool(session: RecordedSession, tool: string, input: object, id: string): object;
  postTool(session: RecordedSession, tool: string, input: object, id: string, response: unknown): object;
  stop(session: RecordedSession): object;
  sessionEnd(session: RecordedSession): object;
}

const claudeBase = (session: RecordedSession, name: string): object => ({
  session_id: session.sessionId,
  transcript_path: session.transcriptPath,
  cwd: session.cwd,
  permission_mode: 'default',
  hook_event_name: name,
});

/** Claude Code's events (tool names: Write, Edit, MultiEdit, NotebookEdit, Bash). */
export const claudeCodeEvents: AgentEvents = {
  sessionStart: (session) => ({
    ...claudeBase(session, 'SessionStart'),
    source: 'startup',
    model: 'claude-sonnet-4-5-20250929',
  }),
  prompt: (session, prompt) => ({ ...claudeBase(session, 'UserPromptSubmit'), prompt }),
  preTool: (session, tool, input, id) => ({
    ...claudeBase(session, 'PreToolUse'),
    tool_name: tool,
    tool_input: input,
    tool_use_id: id,
  }),
  postTool: (session, tool, input, id, response) => ({
    ...claudeBase(session, 'PostToolUse'),
    tool_name: tool,
    tool_input: input,
    tool_response: response,
    tool_use_id: id,
  }),
  stop: (session) => ({ ...claudeBase(session, 'Stop'), stop_hook_active: false }),
  sessionEnd: (session) => ({ ...claudeBase(session, 'SessionEnd'), reason: 'prompt_input_exit' }),
};

const geminiBase = (session: RecordedSession, name: string): object => ({
  session_id: session.sessionId,
  transcript_path: session.transcriptPath,
  cwd: session.cwd,
  hook_event_name: name,
  timestamp: new Date().toISOString(),
});

/** Gemini CLI's events (tool names: write_file, replace, run_shell_command); its tool events carry no call id. */
export const geminiCliEvents: AgentEvents = {
  sessionStart: (session) => ({ ...geminiBase(session, 'SessionStart'), source: 'startup' }),
  prompt: (session, prompt) => ({ ...geminiBase(session, 'BeforeAgent'), prompt }),
  preTool: (session, tool, input) => ({ ...geminiBase(session, 'BeforeTool'), tool_name: tool, tool_input: input }),
  postTool: (session, tool, input, _id, response) => ({
    ...geminiBase(session, 'AfterTool'),
    tool_name: tool,
    tool_input: input,
    tool_response: response,
  }),
  stop: (session) => ({
    ...geminiBase(session, 'AfterAgent'),
    prompt: 'the prompt',
    prompt_response: 'Done.',
    stop_hook_active: false,
  }),
  sessionEnd: (session) => ({ ...geminiBase(session, 'SessionEnd'), reason: 'exit' }),
};
