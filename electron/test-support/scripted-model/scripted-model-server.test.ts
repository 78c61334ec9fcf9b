import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedModel, type ScriptedModel } from './index';

const scenario = {
  name: 'tidy',
  turns: [
    [
      { kind: 'text', text: 'Writing the note.' },
      { kind: 'tool', name: 'Write', input: { file_path: '${CWD}/note.txt', content: 'in ${CWD}' } },
    ],
    [{ kind: 'tool', name: 'Bash', input: { command: 'rm -rf ${CWD}/legacy' } }],
    [{ kind: 'text', text: 'Done.' }],
  ],
} as const;

/** Parses a server-sent event stream into its `data:` objects. */
function sseData(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

const claudeSystem = [{ type: 'text', text: ' - Primary working directory: /work/a\n - Is a git repository: false' }];
const claudeTools = [{ name: 'Bash' }, { name: 'Write' }];

let model: ScriptedModel | undefined;
afterEach(async () => model?.close());

async function post(path: string, body: unknown): Promise<Response> {
  if (model === undefined) throw new Error('no model');
  return fetch(`${model.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
}

describe('the scripted model, as Claude Code sees it', () => {
  it('streams the first turn with the working folder filled in, then the next turn from the ids in the conversation', async () => {
    model = await startScriptedModel([scenario]);
    const first = sseData(
      await (
        await post('/v1/messages?beta=true', {
          system: claudeSystem,
          tools: claudeTools,
          stream: true,
          messages: [{ role: 'user', content: [{ type: 'text', text: '[scenario:tidy] go' }] }],
        })
      ).text(),
    );
    expect(first.map((event) => event['type'])).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(first[4]).toMatchObject({ content_block: { type: 'tool_use', id: 'toolu_vigil_t0_1', name: 'Write' } });
    expect(JSON.parse((first[5]?.['delta'] as { partial_json: string }).partial_json)).toEqual({
      file_path: '/work/a/note.txt',
      content: 'in /work/a',
    });
    expect(first[7]).toMatchObject({ delta: { stop_reason: 'tool_use' } });

    const second = sseData(
      await (
        await post('/v1/messages?beta=true', {
          system: claudeSystem,
          tools: claudeTools,
          messages: [
            { role: 'user', content: '[scenario:tidy] go' },
            { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_vigil_t0_1', name: 'Write', input: {} }] },
            {
              role: 'user',
              content: [
                { type: 'tool_result', tool_use_id: 'toolu_vigil_t0_1', is_error: true, content: 'Vigil refused' },
              ],
            },
          ],
        })
      ).text(),
    );
    expect(second[1]).toMatchObject({ content_block: { type: 'tool_use', id: 'toolu_vigil_t1_0', name: 'Bash' } });
    expect(model.results('tidy')).toEqual([
      { api: 'anthropic', scenario: 'tidy', id: 'toolu_vigil_t0_1', isError: true, text: 'Vigil refused' },
    ]);
    expect(model.served.map((request) => request.turn)).toEqual([0, 1]);
  });

  it('answers side requests (no Bash or Write among the tools) with text that ends the turn', async () => {
    model = await startScriptedModel([scenario]);
    const events = sseData(
      await (await post('/v1/messages', { messages: [{ role: 'user', content: 'title?' }] })).text(),
    );
    expect(events[2]).toMatchObject({ delta: { type: 'text_delta', text: 'Scripted side answer.' } });
    expect(events.at(-2)).toMatchObject({ delta: { stop_reason: 'end_turn' } });
  });
});

describe('the scripted model, as Gemini CLI sees it', () => {
  const context = '<session_context>\n- **Workspace Directories:**\n  - /work/g\n</session_context>';
  const tools = [{ functionDeclarations: [{ name: 'write_file' }] }];

  it('streams function calls whose ids carry the turn; serves generateContent and countTokens for its side requests', async () => {
    model = await startScriptedModel([scenario]);
    const stream = await post('/v1beta/models/m:streamGenerateContent?alt=sse', {
      tools,
      contents: [
        { role: 'user', parts: [{ text: context }, { text: '[scenario:tidy] go' }] },
        { role: 'model', parts: [{ functionCall: { id: 'vigil_t0_1', name: 'write_file', args: {} } }] },
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'vigil_t0_1', name: 'write_file', response: { output: 'ok' } } }],
        },
      ],
    });
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const [chunk] = sseData(await stream.text());
    expect(chunk).toMatchObject({
      candidates: [
        {
          content: {
            parts: [{ functionCall: { id: 'vigil_t1_0', name: 'Bash', args: { command: 'rm -rf /work/g/legacy' } } }],
          },
        },
      ],
    });
    expect(model.results()).toEqual([
      { api: 'gemini', scenario: 'tidy', id: 'vigil_t0_1', isError: false, text: '{"output":"ok"}' },
    ]);

    const side = (await (await post('/v1beta/models/m:generateContent', { contents: [] })).json()) as {
      candidates: { content: { parts: { text: string }[] } }[];
    };
    expect(JSON.parse(side.candidates[0]?.content.parts[0]?.text ?? '')).toMatchObject({
      complexity_score: 10,
      next_speaker: 'user',
    });
    expect(await (await post('/v1beta/models/m:countTokens', {})).json()).toEqual({ totalTokens: 10 });
  });

  it('says so when no scenario is named and several exist, and closes a finished scenario with text', async () => {
    model = await startScriptedModel([scenario, { ...scenario, name: 'other' }]);
    const unnamed = sseData(
      await (
        await post('/v1beta/models/m:streamGenerateContent?alt=sse', { tools, contents: [{ parts: [{ text: 'go' }] }] })
      ).text(),
    );
    expect(unnamed[0]).toMatchObject({
      candidates: [{ content: { parts: [{ text: 'No scenario matches this conversation.' }] } }],
    });
    const over = sseData(
      await (
        await post('/v1beta/models/m:streamGenerateContent?alt=sse', {
          tools,
          contents: [{ parts: [{ text: '[scenario:other]' }, { functionCall: { id: 'vigil_t5_0' } }] }],
        })
      ).text(),
    );
    expect(over[0]).toMatchObject({ candidates: [{ content: { parts: [{ text: 'Scenario other is over.' }] } }] });
  });
});

describe('the scripted model, as Codex CLI sees it', () => {
  const context = '<environment_context>\n  <cwd>/work/c</cwd>\n</environment_context>';

  it('streams function calls (an MCP tool by namespace and name) whose call ids carry the turn, and reads the outputs sent back', async () => {
    model = await startScriptedModel([
      {
        name: 'cx',
        turns: [
          [{ kind: 'tool', name: 'mcp__vigil__terminal', input: { command: 'touch ${CWD}/a' } }],
          [{ kind: 'tool', name: 'exec_command', input: { cmd: 'ls' } }],
          [{ kind: 'text', text: 'Done.' }],
        ],
      },
    ]);
    const user = { type: 'message', role: 'user', content: [{ type: 'input_text', text: context }] };
    const prompt = { type: 'message', role: 'user', content: [{ type: 'input_text', text: '[scenario:cx] go' }] };
    const first = sseData(await (await post('/v1/responses', { stream: true, input: [user, prompt] })).text());
    expect(first.map((event) => event['type'])).toEqual([
      'response.created',
      'response.output_item.added',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(first[2]).toMatchObject({
      item: {
        type: 'function_call',
        call_id: 'call_vigil_t0_0',
        namespace: 'mcp__vigil',
        name: 'terminal',
        arguments: JSON.stringify({ command: 'touch /work/c/a' }),
      },
    });
    const second = sseData(
      await (
        await post('/v1/responses', {
          input: [
            user,
            prompt,
            { type: 'function_call', call_id: 'call_vigil_t0_0', namespace: 'mcp__vigil', name: 'terminal' },
            { type: 'function_call_output', call_id: 'call_vigil_t0_0', output: 'Output:\nterminal was not run' },
          ],
        })
      ).text(),
    );
    expect(second[2]).toMatchObject({
      item: { type: 'function_call', call_id: 'call_vigil_t1_0', name: 'exec_command' },
    });
    expect(second[2]?.['item']).not.toHaveProperty('namespace');
    expect(model.results('cx')).toEqual([
      { api: 'openai', scenario: 'cx', id: 'call_vigil_t0_0', isError: false, text: 'Output:\nterminal was not run' },
    ]);
    expect(model.served.map((request) => [request.api, request.turn])).toEqual([
      ['openai', 0],
      ['openai', 1],
    ]);
  });
});
