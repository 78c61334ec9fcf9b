import { describe, expect, it } from 'vitest';
import { hookOutput } from './hook-output';
import { hookToolMatcher } from './hook-tools';
import { parseHookInput } from './parse-hook-input';

const common = { session_id: 'abc', transcript_path: '/t.jsonl', cwd: '/w' };

describe("the agents' hook input, as documented", () => {
  it("reads Claude Code's events: session, prompt, file and shell tools, their outcomes", () => {
    expect(
      parseHookInput(
        'claude-code',
        JSON.stringify({
          ...common,
          permission_mode: 'default',
          hook_event_name: 'SessionStart',
          source: 'resume',
          model: 'm',
        }),
      ),
    ).toEqual({
      kind: 'event',
      event: {
        agent: 'claude-code',
        kind: 'session-start',
        sessionId: 'abc',
        cwd: '/w',
        transcriptPath: '/t.jsonl',
        source: 'resume',
      },
    });
    expect(
      parseHookInput(
        'claude-code',
        JSON.stringify({ ...common, hook_event_name: 'UserPromptSubmit', prompt: 'Fix it' }),
      ),
    ).toMatchObject({ event: { kind: 'prompt', prompt: 'Fix it' } });
    const edit = { file_path: '/w/a.ts', edits: [{ old_string: 'a', new_string: 'b' }] };
    expect(
      parseHookInput(
        'claude-code',
        JSON.stringify({
          ...common,
          hook_event_name: 'PreToolUse',
          tool_name: 'MultiEdit',
          tool_input: edit,
          tool_use_id: 'toolu_1',
        }),
      ),
    ).toMatchObject({
      event: {
        kind: 'pre-tool',
        tool: { kind: 'file', name: 'MultiEdit', path: '/w/a.ts', input: edit, callId: 'toolu_1' },
      },
    });
    expect(
      parseHookInput(
        'claude-code',
        JSON.stringify({
          ...common,
          hook_event_name: 'PreToolUse',
          tool_name: 'NotebookEdit',
          tool_input: { notebook_path: '/w/n.ipynb', new_source: 'x' },
        }),
      ),
    ).toMatchObject({
      event: { tool: { kind: 'file', path: '/w/n.ipynb' } },
    });
    expect(
      parseHookInput(
        'claude-code',
        JSON.stringify({
          ...common,
          hook_event_name: 'PostToolUse',
          tool_name: 'Bash',
          tool_input: { command: 'ls' },
          tool_use_id: 't',
          tool_response: { stdout: 'a' },
        }),
      ),
    ).toMatchObject({
      event: {
        kind: 'post-tool',
        tool: { kind: 'shell', command: 'ls' },
        outcome: { ok: true, response: { stdout: 'a' } },
      },
    });
    expect(
      parseHookInput(
        'claude-code',
        JSON.stringify({
          ...common,
          hook_event_name: 'PostToolUseFailure',
          tool_name: 'Bash',
          tool_input: { command: 'false' },
          error: 'exit 1',
          is_interrupt: true,
        }),
      ),
    ).toMatchObject({
      event: { kind: 'post-tool', outcome: { ok: false, error: 'interrupted: exit 1' } },
    });
    expect(
      parseHookInput('claude-code', JSON.stringify({ ...common, hook_event_name: 'Stop', stop_hook_active: true })),
    ).toMatchObject({ event: { kind: 'stop' } });
    expect(
      parseHookInput('claude-code', JSON.stringify({ ...common, hook_event_name: 'SessionEnd', reason: 'logout' })),
    ).toMatchObject({ event: { kind: 'session-end', reason: 'logout' } });
  });

  it("reads Gemini CLI's events, both spellings where its documentation has two (source/trigger, dir_path/directory)", () => {
    expect(
      parseHookInput(
        'gemini-cli',
        JSON.stringify({ ...common, hook_event_name: 'SessionStart', timestamp: 't', trigger: 'clear' }),
      ),
    ).toMatchObject({ event: { kind: 'session-start', source: 'clear' } });
    expect(
      parseHookInput('gemini-cli', JSON.stringify({ ...common, hook_event_name: 'SessionEnd', reason: 'exit' })),
    ).toMatchObject({ event: { kind: 'session-end', reason: 'exit' } });
    expect(
      parseHookInput('gemini-cli', JSON.stringify({ ...common, hook_event_name: 'BeforeAgent', prompt: 'p' })),
    ).toMatchObject({ event: { kind: 'prompt', prompt: 'p' } });
    for (const key of ['dir_path', 'directory']) {
      expect(
        parseHookInput(
          'gemini-cli',
          JSON.stringify({
            ...common,
            hook_event_name: 'BeforeTool',
            tool_name: 'run_shell_command',
            tool_input: { command: 'make', [key]: 'sub' },
          }),
        ),
      ).toMatchObject({
        event: { kind: 'pre-tool', tool: { kind: 'shell', command: 'make', directory: 'sub' } },
      });
    }
    const failed = { llmContent: '', returnDisplay: '', error: { message: 'disk full', type: 'EXECUTION_FAILED' } };
    expect(
      parseHookInput(
        'gemini-cli',
        JSON.stringify({
          ...common,
          hook_event_name: 'AfterTool',
          tool_name: 'replace',
          tool_input: { file_path: 'a' },
          tool_response: failed,
        }),
      ),
    ).toMatchObject({
      event: { kind: 'post-tool', tool: { kind: 'file', path: 'a' }, outcome: { ok: false, error: 'disk full' } },
    });
    expect(
      parseHookInput(
        'gemini-cli',
        JSON.stringify({
          ...common,
          hook_event_name: 'AfterAgent',
          prompt: 'p',
          prompt_response: 'r',
          stop_hook_active: false,
        }),
      ),
    ).toMatchObject({ event: { kind: 'stop' } });
  });

  it('ignores other events and tools, and names the field of input it cannot read', () => {
    expect(
      parseHookInput('claude-code', JSON.stringify({ ...common, hook_event_name: 'Notification', message: 'm' })),
    ).toEqual({ kind: 'ignored', name: 'Notification' });
    expect(
      parseHookInput(
        'gemini-cli',
        JSON.stringify({
          ...common,
          hook_event_name: 'BeforeTool',
          tool_name: 'google_web_search',
          tool_input: { query: 'q' },
        }),
      ),
    ).toMatchObject({ kind: 'ignored' });
    expect(parseHookInput('claude-code', '{')).toMatchObject({ kind: 'invalid', field: '(stdin)' });
    expect(parseHookInput('claude-code', JSON.stringify({ ...common, hook_event_name: 7 }))).toMatchObject({
      kind: 'invalid',
      field: 'hook_event_name',
      message: '"hook_event_name" is a number, not a string',
    });
    expect(
      parseHookInput('claude-code', JSON.stringify({ ...common, cwd: '', hook_event_name: 'Stop' })),
    ).toMatchObject({ kind: 'invalid', field: 'cwd' });
    expect(
      parseHookInput(
        'claude-code',
        JSON.stringify({ ...common, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: null }),
      ),
    ).toMatchObject({ kind: 'invalid', field: 'tool_input' });
    expect(
      parseHookInput(
        'gemini-cli',
        JSON.stringify({
          ...common,
          hook_event_name: 'BeforeTool',
          tool_name: 'write_file',
          tool_input: { file_path: 3 },
        }),
      ),
    ).toMatchObject({ kind: 'invalid', field: 'tool_input.file_path' });
  });

  it("says when no person can be asked (Claude Code's bypassPermissions and dontAsk), and which event a bad input was", () => {
    const preTool = { ...common, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } };
    for (const mode of ['bypassPermissions', 'dontAsk'])
      expect(parseHookInput('claude-code', JSON.stringify({ ...preTool, permission_mode: mode }))).toMatchObject({
        event: { unattended: expect.stringContaining(`"${mode}"`) as unknown },
      });
    for (const mode of ['default', 'acceptEdits', 'plan', undefined]) {
      const parsed = parseHookInput('claude-code', JSON.stringify({ ...preTool, permission_mode: mode }));
      expect(parsed.kind === 'event' && parsed.event.unattended).toBe(undefined);
    }
    expect(parseHookInput('claude-code', JSON.stringify({ ...preTool, cwd: 'w' }))).toEqual({
      kind: 'invalid',
      field: 'cwd',
      message: expect.stringMatching(/relative path "w"/) as unknown,
      eventKind: 'pre-tool',
    });
    expect(
      parseHookInput('gemini-cli', JSON.stringify({ ...common, cwd: 'C:\\w', hook_event_name: 'AfterAgent' })).kind,
    ).toBe('event');
    expect(
      parseHookInput(
        'claude-code',
        JSON.stringify({ ...preTool, tool_input: { command: 'x'.repeat(1024 * 1024 + 1) } }),
      ),
    ).toMatchObject({ kind: 'invalid', field: 'tool_input.command', eventKind: 'pre-tool' });
    expect(parseHookInput('claude-code', 'nope')).not.toHaveProperty('eventKind');
  });

  it("answers in each agent's decision format; Vigil's \"allow\" never skips Claude Code's own prompt unless configured to", () => {
    const answer = { decision: 'deny', reason: 'it would delete your home folder', notices: [] } as const;
    expect(hookOutput('claude-code', 'pre-tool', answer)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'Vigil: it would delete your home folder',
      },
    });
    expect(hookOutput('gemini-cli', 'pre-tool', { ...answer, decision: 'ask' })).toEqual({
      decision: 'ask',
      reason: 'Vigil: it would delete your home folder',
      systemMessage: 'Vigil: it would delete your home folder',
    });
    expect(hookOutput('claude-code', 'pre-tool', { decision: 'allow', notices: [] })).toBeUndefined();
    expect(hookOutput('claude-code', 'pre-tool', { decision: 'allow', notices: [], isApproving: true })).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'allow' },
    });
    expect(hookOutput('gemini-cli', 'pre-tool', { decision: 'allow', notices: [] })).toEqual({ decision: 'allow' });
    expect(hookOutput('claude-code', 'session-start', { notices: ['told once'] })).toEqual({
      systemMessage: 'Vigil: told once',
    });
    expect(hookToolMatcher('claude-code')).toBe('Write|Edit|MultiEdit|NotebookEdit|Bash');
    expect(hookToolMatcher('gemini-cli')).toBe('write_file|replace|run_shell_command');
  });
});
