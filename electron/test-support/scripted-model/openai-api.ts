import type { ServerResponse } from 'node:http';
import { nextTurn, pickScenario, scriptedTurn, toolCallId, type Scenario, type ScriptedBlock } from './scenario';
import type { ObservedResult } from './observed';

/** One item of a Responses API `input`: a message, a function call the model made, or its output. */
interface InputItem {
  readonly type?: string;
  readonly role?: string;
  readonly content?: string | readonly { readonly type?: string; readonly text?: string }[];
  readonly call_id?: string;
  readonly output?: string | readonly { readonly type?: string; readonly text?: string }[];
}

/** The parts of an OpenAI Responses request (`POST /v1/responses`) the scripted model reads. */
interface ResponsesRequest {
  readonly instructions?: string;
  readonly input?: string | readonly InputItem[];
}

function itemsOf(request: ResponsesRequest): readonly InputItem[] {
  if (typeof request.input === 'string') return [{ type: 'message', role: 'user', content: request.input }];
  return request.input ?? [];
}

function textOf(content: InputItem['content'] | InputItem['output']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => part.text ?? '').join('\n');
}

function allText(request: ResponsesRequest): string {
  return [request.instructions ?? '', ...itemsOf(request).map((item) => textOf(item.content))].join('\n');
}

/** The working folder Codex names in its environment context (`<cwd>…</cwd>`). */
export function codexCwd(request: ResponsesRequest): string {
  return /<cwd>([^<]+)<\/cwd>/.exec(allText(request))?.[1]?.trim() ?? '';
}

/**
 * Whether a function output reads as a failure: a JSON output with `isError: true` or `success:
 * false`, or text that starts with an error. Codex 0.171 passes an MCP result's text on without its
 * `isError` flag, so tests of Codex read the text.
 */
function isFailure(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null)
      return (value as { isError?: unknown }).isError === true || (value as { success?: unknown }).success === false;
  } catch {
    // Plain text: Codex's own wording for a call that did not run.
  }
  return /^(?:error|tool call error|failed)\b/i.test(text.trim());
}

/** The function outputs the request carries back. */
export function openaiResults(request: ResponsesRequest, scenario: string): ObservedResult[] {
  return itemsOf(request)
    .filter(
      (item) =>
        (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') &&
        typeof item.call_id === 'string',
    )
    .map((item) => {
      const text = textOf(item.output);
      return { api: 'openai', scenario, id: item.call_id ?? '', isError: isFailure(text), text };
    });
}

/** A scripted block as a Responses output item: an assistant message, a function call (`mcp__server__tool` as namespace and name), or a custom (freeform) tool call. */
function outputItem(block: ScriptedBlock, turn: number, index: number): Record<string, unknown> {
  if (block.kind === 'text')
    return {
      type: 'message',
      id: `msg_vigil_${turn}_${index}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: block.text, annotations: [] }],
    };
  if (block.kind === 'freeform')
    return {
      type: 'custom_tool_call',
      id: `ctc_vigil_${turn}_${index}`,
      call_id: toolCallId('call_', turn, index),
      name: block.name,
      input: block.input,
      status: 'completed',
    };
  // Codex offers an MCP server's tools in a namespace (`mcp__vigil`) and expects calls to name it apart.
  const cut = block.name.startsWith('mcp__') ? block.name.lastIndexOf('__') : -1;
  return {
    type: 'function_call',
    id: `fc_vigil_${turn}_${index}`,
    call_id: toolCallId('call_', turn, index),
    ...(cut <= 'mcp_'.length
      ? { name: block.name }
      : { namespace: block.name.slice(0, cut), name: block.name.slice(cut + 2) }),
    arguments: JSON.stringify(block.input),
    status: 'completed',
  };
}

/** Server-sent events of one Responses API answer made of `blocks`. */
export function openaiEvents(blocks: readonly ScriptedBlock[], turn: number): string {
  const id = `resp_vigil_${turn}`;
  const events: string[] = [];
  const event = (type: string, data: Record<string, unknown>): void => {
    events.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  event('response.created', { response: { id, status: 'in_progress', output: [] } });
  const output = blocks.map((block, index) => outputItem(block, turn, index));
  output.forEach((item, index) => {
    event('response.output_item.added', { output_index: index, item });
    event('response.output_item.done', { output_index: index, item });
  });
  const usage = { input_tokens: 10, output_tokens: 1, total_tokens: 11 };
  event('response.completed', { response: { id, status: 'completed', output, usage } });
  return events.join('');
}

/** What the scripted model answered one Responses request with. */
export interface OpenAiAnswer {
  readonly scenario: string | undefined;
  readonly turn: number | undefined;
  readonly results: readonly ObservedResult[];
}

/**
 * Answers `POST /v1/responses` (streaming), as Codex CLI calls it: the scenario's next turn, the
 * turn worked out from the function call ids already in the input; a short text otherwise.
 */
export function answerResponses(
  request: ResponsesRequest,
  scenarios: readonly Scenario[],
  response: ServerResponse,
): OpenAiAnswer {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const scenario = pickScenario(scenarios, allText(request));
  if (scenario === undefined) {
    response.end(openaiEvents([{ kind: 'text', text: 'No scenario matches this conversation.' }], 0));
    return { scenario: undefined, turn: undefined, results: [] };
  }
  const ids = itemsOf(request).flatMap((item) => (typeof item.call_id === 'string' ? [item.call_id] : []));
  const turn = nextTurn(ids);
  response.end(openaiEvents(scriptedTurn(scenario, turn, codexCwd(request)), turn));
  return { scenario: scenario.name, turn, results: openaiResults(request, scenario.name) };
}
