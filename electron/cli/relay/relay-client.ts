import { request as httpRequest, type IncomingMessage } from 'node:http';
import { AppError } from '../../../shared/errors';
import type { Result } from '../../../shared/result';
import { authorizationHeader, type ServeCredential } from './serve-credential';

/** What a relayed call came to: the core's answer, or a core that cannot be reached (the call never ran). */
export type RelayOutcome =
  | { readonly kind: 'answered'; readonly result: Result<unknown> }
  | { readonly kind: 'unreachable'; readonly reason: string };

/** Options of one relayed call. */
export interface RelayCallOptions {
  /** Events to receive while the call runs (restore progress, approvals). */
  readonly events?: readonly string[];
  readonly onEvent?: (name: string, payload: unknown) => void;
  /** How long connecting may take before the core counts as unreachable (default 2 s). */
  readonly connectTimeoutMs?: number;
}

/** The header a Vigil core answers contract calls with (see electron/server/http-contract-call.ts). */
const contractHeader = 'x-vigil-contract';

function disconnected(credential: ServeCredential): AppError {
  return new AppError(
    'disconnected',
    `The Vigil core (pid ${credential.pid}) stopped answering before the call finished, so it may or may not have run. Check its result (for example with "vigil checkpoints list"), then run the command again.`,
    { pid: credential.pid },
  );
}

function isResultFrame(value: unknown): value is { readonly type: 'result'; readonly result: Result<unknown> } {
  if (typeof value !== 'object' || value === null) return false;
  const { type, result } = value as { type?: unknown; result?: unknown };
  return (
    type === 'result' &&
    typeof result === 'object' &&
    result !== null &&
    typeof (result as { ok?: unknown }).ok === 'boolean'
  );
}

/** Reads the answer's frames: events as they come, then the result; a stream that ends without one means the core died. */
function readFrames(
  response: IncomingMessage,
  credential: ServeCredential,
  options: RelayCallOptions,
): Promise<Result<unknown>> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    let result: Result<unknown> | undefined;
    const take = (line: string): void => {
      if (line.trim() === '') return;
      const frame = JSON.parse(line) as unknown;
      if (isResultFrame(frame)) result = frame.result;
      else if (typeof frame === 'object' && frame !== null && (frame as { type?: unknown }).type === 'event') {
        const { name, payload } = frame as { name?: unknown; payload?: unknown };
        if (typeof name === 'string') options.onEvent?.(name, payload);
      }
    };
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        try {
          take(line);
        } catch {
          reject(disconnected(credential));
        }
      }
    });
    response.on('error', () => reject(disconnected(credential)));
    response.on('close', () => (result === undefined ? reject(disconnected(credential)) : resolve(result)));
  });
}

/** The message of a request the core refused before any handler saw it. */
async function refusal(response: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of response) text += String(chunk);
  try {
    return (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text.trim();
  } catch {
    return text.trim();
  }
}

/**
 * One contract call relayed to the resident core over loopback: `POST /ws`, serve.json's credential
 * as `Authorization: Bearer`. Unreachable (refused, wrong token, not a Vigil core, no answer to the
 * connection): the call never ran, and the caller may work in-process. A core that dies after
 * taking the call rejects with `disconnected`: it may have run, so it must not be repeated.
 */
export function relayCall(
  credential: ServeCredential,
  channel: string,
  payload: unknown,
  options: RelayCallOptions = {},
): Promise<RelayOutcome> {
  const body = JSON.stringify({ channel, payload, events: options.events ?? [] });
  return new Promise((resolve, reject) => {
    let isSettled = false;
    const settle = (outcome: RelayOutcome | Error): void => {
      if (isSettled) return;
      isSettled = true;
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const request = httpRequest(new URL('/ws', credential.origin), {
      method: 'POST',
      // One connection per call, closed with it: nothing keeps a finished command's process alive.
      agent: false,
      headers: {
        Authorization: authorizationHeader(credential),
        'Content-Type': 'application/json',
        Accept: 'application/x-ndjson',
        'Content-Length': Buffer.byteLength(body),
      },
    });
    const connectTimer = setTimeout(() => {
      request.destroy();
      settle({
        kind: 'unreachable',
        reason: `no answer from ${credential.origin} within ${options.connectTimeoutMs ?? 2_000} ms`,
      });
    }, options.connectTimeoutMs ?? 2_000);
    request.on('socket', (socket) => socket.once('connect', () => clearTimeout(connectTimer)));
    let hasResponse = false;
    request.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(connectTimer);
      // After the answer started, its stream reports the end (a core that died: `disconnected`).
      if (hasResponse) return;
      settle({
        kind: 'unreachable',
        reason: `${credential.origin} refused the connection (${error.code ?? error.message})`,
      });
    });
    request.on('response', (response) => {
      hasResponse = true;
      clearTimeout(connectTimer);
      if (response.statusCode === 401) {
        response.resume();
        settle({ kind: 'unreachable', reason: `the core at ${credential.origin} refused serve.json's token` });
        return;
      }
      if (response.headers[contractHeader] !== '1') {
        response.resume();
        settle({
          kind: 'unreachable',
          reason: `${credential.origin} is not a Vigil core (HTTP ${response.statusCode ?? 0})`,
        });
        return;
      }
      if (response.statusCode !== 200) {
        void refusal(response).then((message) =>
          settle({
            kind: 'unreachable',
            reason: `the core refused the request (HTTP ${response.statusCode ?? 0}: ${message})`,
          }),
        );
        return;
      }
      readFrames(response, credential, options).then(
        (result) => settle({ kind: 'answered', result }),
        (error: unknown) => settle(error instanceof Error ? error : disconnected(credential)),
      );
    });
    request.end(body);
  });
}
