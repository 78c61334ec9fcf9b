import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerMessages } from './anthropic-api';
import { answerGenerate } from './gemini-api';
import { answerResponses } from './openai-api';
import type { ObservedResult } from './observed';
import type { Scenario } from './scenario';

/** One request the scripted model answered: which API, scenario and turn. */
export interface ServedRequest {
  readonly api: 'anthropic' | 'gemini' | 'openai';
  readonly path: string;
  readonly scenario: string | undefined;
  readonly turn: number | undefined;
}

/** A running scripted model: its base URL, what it served, what the agents sent back. */
export interface ScriptedModel {
  readonly url: string;
  /** Adds scenarios (a later one of the same name replaces the earlier). */
  add(...scenarios: Scenario[]): void;
  readonly served: readonly ServedRequest[];
  /** Every tool result the agents sent back, once each (by API and call id), in the order first seen. */
  results(scenario?: string): ObservedResult[];
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

function parseJson(body: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Starts a stateless scripted model on 127.0.0.1 (a free port) that speaks Anthropic's Messages
 * API (Claude Code), Gemini's generateContent API (Gemini CLI) and OpenAI's Responses API (Codex CLI). Each answer is worked out from
 * the request alone — the scenario from its `[scenario:NAME]` marker, the turn from the tool-call
 * ids already in the conversation — so any number of agents can use it at once.
 */
export async function startScriptedModel(initial: readonly Scenario[] = []): Promise<ScriptedModel> {
  const scenarios = new Map(initial.map((scenario) => [scenario.name, scenario]));
  const served: ServedRequest[] = [];
  const results = new Map<string, ObservedResult>();
  const record = (
    api: ServedRequest['api'],
    path: string,
    answer: Omit<ServedRequest, 'api' | 'path'> & { readonly results: readonly ObservedResult[] },
  ): void => {
    served.push({ api, path, scenario: answer.scenario, turn: answer.turn });
    for (const result of answer.results)
      if (!results.has(`${api} ${result.id}`)) results.set(`${api} ${result.id}`, result);
  };
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = request.url ?? '/';
    if (request.method === 'HEAD' || request.method === 'GET') {
      response.writeHead(200).end();
      return;
    }
    const body = parseJson(await readBody(request));
    const all = [...scenarios.values()];
    if (path.startsWith('/v1/messages/count_tokens')) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 10 }));
    } else if (path.startsWith('/v1/messages')) {
      record('anthropic', path, answerMessages(body, all, response));
    } else if (path.startsWith('/v1/responses')) {
      record('openai', path, answerResponses(body, all, response));
    } else if (path.includes(':countTokens')) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalTokens: 10 }));
    } else if (path.includes(':streamGenerateContent') || path.includes(':generateContent')) {
      record('gemini', path, answerGenerate(body, path.includes(':streamGenerateContent'), all, response));
    } else {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `The scripted model does not serve ${path}.` } }));
    }
  };
  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    add: (...more) => more.forEach((scenario) => scenarios.set(scenario.name, scenario)),
    served,
    results: (scenario) =>
      [...results.values()].filter((result) => scenario === undefined || result.scenario === scenario),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
