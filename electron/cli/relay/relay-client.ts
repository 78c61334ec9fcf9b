import { connect } from 'node:net';
import { AppError } from '../../../shared/errors';
import type { Result } from '../../../shared/result';
import { authorizationHeader, type ServeCredential } from './serve-credential';
import { readHttpAnswer, type AnswerHead } from './http-answer';

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
  /**
   * How long, once connected, the answer's head may take before the peer counts as unreachable
   * (default 10 s). A Vigil core sends its head before it dispatches the call, so a peer that
   * accepts and never answers (a stale serve.json's port taken by something else, a stopped
   * process) has not run the call, and the command must not hang on it.
   */
  readonly answerTimeoutMs?: number;
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

/** Reads the answer's frames as they come: events to `onEvent`; the result, if one came. Throws on a frame that is not JSON. */
function frameReader(options: RelayCallOptions): {
  readonly take: (text: string) => void;
  readonly result: () => Result<unknown> | undefined;
} {
  let buffered = '';
  let result: Result<unknown> | undefined;
  const takeLine = (line: string): void => {
    if (line.trim() === '') return;
    const frame = JSON.parse(line) as unknown;
    if (isResultFrame(frame)) result = frame.result;
    else if (typeof frame === 'object' && frame !== null && (frame as { type?: unknown }).type === 'event') {
      const { name, payload } = frame as { name?: unknown; payload?: unknown };
      if (typeof name === 'string') options.onEvent?.(name, payload);
    }
  };
  return {
    take: (text) => {
      buffered += text;
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        takeLine(line);
      }
    },
    result: () => result,
  };
}

/** The message of a request the core refused before any handler saw it. */
function refusal(text: string): string {
  try {
    return (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text.trim();
  } catch {
    return text.trim();
  }
}

/** Why an answer's head means the call never ran, or undefined when the core took it (its frames follow). */
function refusedBy(head: AnswerHead, credential: ServeCredential): string | undefined {
  if (head.status === 401) return `the core at ${credential.origin} refused serve.json's token`;
  if (head.headers.get(contractHeader) !== '1') return `${credential.origin} is not a Vigil core (HTTP ${head.status})`;
  return undefined;
}

/** The request: HTTP/1.0, so the core answers unchunked and closes the connection when the call is done. */
function encodeRequest(credential: ServeCredential, host: string, body: string): string {
  return [
    'POST /ws HTTP/1.0',
    `Host: ${host}`,
    `Authorization: ${authorizationHeader(credential)}`,
    'Content-Type: application/json',
    'Accept: application/x-ndjson',
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
}

/**
 * One contract call relayed to the resident core over loopback: `POST /ws`, serve.json's credential
 * as `Authorization: Bearer`. Unreachable (refused, wrong token, not a Vigil core, no answer to the
 * connection): the call never ran, and the caller may work in-process. A core that dies after
 * taking the call rejects with `disconnected`: it may have run, so it must not be repeated.
 *
 * Spoken as plain HTTP/1.0 on a socket rather than through `node:http`: every `vigil` command and
 * agent hook that relays starts a process, and node:http's dozen modules cost each one ~6 ms of
 * CPU (docs/benchmarks.md); one request and one unchunked answer need none of them.
 */
export function relayCall(
  credential: ServeCredential,
  channel: string,
  payload: unknown,
  options: RelayCallOptions = {},
): Promise<RelayOutcome> {
  const body = JSON.stringify({ channel, payload, events: options.events ?? [] });
  const origin = new URL(credential.origin);
  if (/[^\x21-\x7e]/.test(credential.token)) {
    return Promise.resolve({ kind: 'unreachable', reason: "serve.json's token has characters a header cannot carry" });
  }
  const timeoutMs = options.connectTimeoutMs ?? 2_000;
  const answerTimeoutMs = options.answerTimeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    let isSettled = false;
    const settle = (outcome: RelayOutcome | Error): void => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(waitTimer);
      socket.destroy();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    // One connection per call, closed with it: nothing keeps a finished command's process alive.
    const socket = connect({
      host: origin.hostname.replace(/^\[|\]$/g, ''),
      port: Number(origin.port === '' ? 80 : origin.port),
    });
    let head: AnswerHead | undefined;
    let waitTimer = setTimeout(
      () => settle({ kind: 'unreachable', reason: `no answer from ${credential.origin} within ${timeoutMs} ms` }),
      timeoutMs,
    );
    socket.once('connect', () => {
      clearTimeout(waitTimer);
      waitTimer = setTimeout(() => {
        // Timers run before the loop reads sockets: a head already waiting to be read is taken first
        // (setImmediate runs after that read), so a call the core did take is never counted as not run.
        setImmediate(() => {
          if (head === undefined)
            settle({ kind: 'unreachable', reason: silentPeerReason(credential, answerTimeoutMs) });
        });
      }, answerTimeoutMs);
      // Not half-closed: Node's server drops a request whose client ends its side before the answer.
      socket.write(encodeRequest(credential, origin.host, body));
    });
    const frames = frameReader(options);
    let refusedText = '';
    readHttpAnswer(socket, {
      onHead: (answer) => {
        head = answer;
        clearTimeout(waitTimer);
        const refused = refusedBy(answer, credential);
        if (refused !== undefined) settle({ kind: 'unreachable', reason: refused });
      },
      onBody: (text) => {
        // Once settled (a head that refused the call), what follows is not the core's: never read as frames.
        if (isSettled) return;
        if (head?.status !== 200) {
          refusedText += text;
          return;
        }
        try {
          frames.take(text);
        } catch {
          settle(disconnected(credential));
        }
      },
      onEnd: (error) => {
        if (head === undefined) {
          // No answer at all: the call never reached a handler (the core sends its head before dispatching).
          settle({ kind: 'unreachable', reason: unreachableReason(credential, error) });
        } else if (head.status !== 200) {
          settle({
            kind: 'unreachable',
            reason: `the core refused the request (HTTP ${head.status}: ${refusal(refusedText)})`,
          });
        } else {
          const result = frames.result();
          settle(result === undefined ? disconnected(credential) : { kind: 'answered', result });
        }
      },
    });
  });
}

function silentPeerReason(credential: ServeCredential, ms: number): string {
  return `${credential.origin} accepted the connection but sent no answer within ${ms} ms (a Vigil core answers at once)`;
}

function unreachableReason(credential: ServeCredential, error: NodeJS.ErrnoException | undefined): string {
  if (error === undefined) return `${credential.origin} closed the connection without answering`;
  return `${credential.origin} refused the connection (${error.code ?? error.message})`;
}
