import type { ServerResponse } from 'node:http';
import { nextTurn, pickScenario, scriptedTurn, toolCallId, type Scenario, type ScriptedBlock } from './scenario';
import type { ObservedResult } from './observed';

interface Part {
  readonly text?: string;
  readonly functionCall?: { readonly id?: string; readonly name?: string };
  readonly functionResponse?: { readonly id?: string; readonly name?: string; readonly response?: unknown };
}

/** The parts of a Gemini generateContent request the scripted model reads. */
interface GenerateRequest {
  readonly contents?: readonly { readonly role?: string; readonly parts?: readonly Part[] }[];
  readonly systemInstruction?: { readonly parts?: readonly Part[] };
  readonly tools?: readonly { readonly functionDeclarations?: readonly { readonly name?: string }[] }[];
}

function partsOf(request: GenerateRequest): Part[] {
  return (request.contents ?? []).flatMap((content) => [...(content.parts ?? [])]);
}

function allText(request: GenerateRequest): string {
  return [...(request.systemInstruction?.parts ?? []), ...partsOf(request)].map((part) => part.text ?? '').join('\n');
}

/** The working folder Gemini CLI names in its session context ("Workspace Directories: - …"). */
export function geminiCwd(request: GenerateRequest): string {
  return /Workspace Directories:\**\s*\n\s*- (.+)/.exec(allText(request))?.[1]?.trim() ?? '';
}

/** The function responses the request carries back. */
export function geminiResults(request: GenerateRequest, scenario: string): ObservedResult[] {
  return partsOf(request).flatMap((part) => {
    const answer = part.functionResponse;
    if (answer === undefined) return [];
    const response = answer.response;
    const isError = typeof response === 'object' && response !== null && 'error' in response;
    return [{ api: 'gemini', scenario, id: answer.id ?? '', isError, text: JSON.stringify(response) }];
  });
}

/** One streamed chunk (`data: …`) holding the whole scripted turn. */
export function geminiChunk(blocks: readonly ScriptedBlock[], turn: number): Record<string, unknown> {
  const parts = blocks.map((block, index) =>
    block.kind === 'text'
      ? { text: block.text }
      : {
          functionCall: {
            id: toolCallId('', turn, index),
            name: block.name,
            args: block.kind === 'tool' ? block.input : { input: block.input },
          },
        },
  );
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 1, totalTokenCount: 11 },
    modelVersion: 'gemini-scripted',
  };
}

/** The ids of the calls already in the conversation: the model's calls and the answers to them. */
function callIds(request: GenerateRequest): string[] {
  return partsOf(request).flatMap((part) => [part.functionCall?.id ?? '', part.functionResponse?.id ?? '']);
}

/** What the scripted model answered one Gemini request with. */
export interface GeminiAnswer {
  readonly scenario: string | undefined;
  readonly turn: number | undefined;
  readonly results: readonly ObservedResult[];
}

/** The JSON that Gemini CLI's side requests parse (its model router, its next-speaker check): one object for all of them. */
const sideAnswer = JSON.stringify({
  complexity_reasoning: 'scripted',
  complexity_score: 10,
  reasoning: 'scripted',
  next_speaker: 'user',
});

/**
 * Answers `…:streamGenerateContent?alt=sse` with the scenario's next turn (a request with tools)
 * and `…:generateContent` (Gemini CLI's side requests) with JSON text.
 */
export function answerGenerate(
  request: GenerateRequest,
  isStream: boolean,
  scenarios: readonly Scenario[],
  response: ServerResponse,
): GeminiAnswer {
  const hasTools = (request.tools ?? []).some((tool) => (tool.functionDeclarations ?? []).length > 0);
  const scenario = isStream && hasTools ? pickScenario(scenarios, allText(request)) : undefined;
  const turn = scenario === undefined ? undefined : nextTurn(callIds(request));
  const blocks: readonly ScriptedBlock[] =
    scenario === undefined || turn === undefined
      ? [{ kind: 'text', text: isStream ? 'No scenario matches this conversation.' : sideAnswer }]
      : scriptedTurn(scenario, turn, geminiCwd(request));
  const chunk = geminiChunk(blocks, turn ?? 0);
  if (isStream) {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.end(`data: ${JSON.stringify(chunk)}\n\n`);
  } else {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(chunk));
  }
  return {
    scenario: scenario?.name,
    turn,
    results: scenario === undefined ? [] : geminiResults(request, scenario.name),
  };
}
