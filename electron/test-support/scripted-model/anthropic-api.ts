import type { ServerResponse } from 'node:http';
import { nextTurn, pickScenario, scriptedTurn, toolCallId, type Scenario, type ScriptedBlock } from './scenario';
import type { ObservedResult } from './observed';

/** The parts of an Anthropic Messages request the scripted model reads. */
interface MessagesRequest {
  readonly system?: string | readonly { readonly text?: string }[];
  readonly messages?: readonly { readonly role: string; readonly content: string | readonly ContentBlock[] }[];
  readonly tools?: readonly { readonly name?: string }[];
}

interface ContentBlock {
  readonly type: string;
  readonly id?: string;
  readonly text?: string;
  readonly tool_use_id?: string;
  readonly content?: string | readonly { readonly type: string; readonly text?: string }[];
  readonly is_error?: boolean;
}

function systemText(request: MessagesRequest): string {
  if (typeof request.system === 'string') return request.system;
  return (request.system ?? []).map((block) => block.text ?? '').join('\n');
}

function blocksOf(request: MessagesRequest): ContentBlock[] {
  return (request.messages ?? []).flatMap((message) =>
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...message.content],
  );
}

/** The working folder Claude Code names in its system prompt ("Primary working directory: …"). */
export function claudeCwd(request: MessagesRequest): string {
  return /(?:Primary working directory|Working directory): (.+)/.exec(systemText(request))?.[1]?.trim() ?? '';
}

/** The tool results the request carries back, with their text. */
export function anthropicResults(request: MessagesRequest, scenario: string): ObservedResult[] {
  return blocksOf(request)
    .filter((block) => block.type === 'tool_result' && typeof block.tool_use_id === 'string')
    .map((block) => ({
      api: 'anthropic',
      scenario,
      id: block.tool_use_id ?? '',
      isError: block.is_error === true,
      text:
        typeof block.content === 'string'
          ? block.content
          : (block.content ?? []).map((part) => part.text ?? '').join('\n'),
    }));
}

/** Server-sent events of one assistant message made of `blocks`. */
export function anthropicEvents(blocks: readonly ScriptedBlock[], turn: number): string {
  const events: string[] = [];
  const event = (type: string, data: Record<string, unknown>): void => {
    events.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  const usage = { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = { id: `msg_vigil_${turn}`, type: 'message', role: 'assistant', model: 'claude-scripted' };
  event('message_start', { message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage } });
  blocks.forEach((block, index) => {
    if (block.kind === 'text') {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      const id = toolCallId('toolu_', turn, index);
      event('content_block_start', { index, content_block: { type: 'tool_use', id, name: block.name, input: {} } });
      // A freeform call is an OpenAI notion: elsewhere its text travels as the input's one field.
      const partial_json = JSON.stringify(block.kind === 'tool' ? block.input : { input: block.input });
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
    }
    event('content_block_stop', { index });
  });
  const stop_reason = blocks.some((block) => block.kind !== 'text') ? 'tool_use' : 'end_turn';
  event('message_delta', { delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: 1 } });
  event('message_stop', {});
  return events.join('');
}

/** What the scripted model answered one Messages request with. */
export interface AnthropicAnswer {
  readonly scenario: string | undefined;
  readonly turn: number | undefined;
  readonly results: readonly ObservedResult[];
}

/**
 * Answers `POST /v1/messages` (streaming): the scenario's next turn for a conversation whose tools
 * include Bash or Write; a short text for the agent's side requests (titles, summaries).
 */
export function answerMessages(
  request: MessagesRequest,
  scenarios: readonly Scenario[],
  response: ServerResponse,
): AnthropicAnswer {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const isMain = (request.tools ?? []).some((tool) => tool.name === 'Bash' || tool.name === 'Write');
  const blocks = blocksOf(request);
  const scenario = isMain ? pickScenario(scenarios, blocks.map((block) => block.text ?? '').join('\n')) : undefined;
  if (scenario === undefined) {
    const text = isMain ? 'No scenario matches this conversation.' : 'Scripted side answer.';
    response.end(anthropicEvents([{ kind: 'text', text }], 0));
    return { scenario: undefined, turn: undefined, results: [] };
  }
  const turn = nextTurn(blocks.filter((block) => block.type === 'tool_use').map((block) => block.id ?? ''));
  response.end(anthropicEvents(scriptedTurn(scenario, turn, claudeCwd(request)), turn));
  return { scenario: scenario.name, turn, results: anthropicResults(request, scenario.name) };
}
