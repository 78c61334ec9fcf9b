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
   * How long, once connected, the peer may take to ask for the call's body (`100 Continue`) before
   * it counts as unreachable (default 10 s). The body is sent only then, so a peer that accepts and
   * never answers (a core stopped with Ctrl-Z or stuck, a stale serve.json's port taken by another
   * program) never received the call and can never run it later: working in-process is safe.
   */
  readonly answerTimeoutMs?: number;
}

/**
 * node:net taken as the built-in module it is, not through an ES import: Node builds an ES facade
 * of a built-in by reading every export, and node:net's lazy ones (BlockList, SocketAddress) then
 * load their modules (about half a millisecond of CPU per relayed command and hook call, measured on the built relay chunk).
 */
const { connect } = process.getBuiltinModule('node:net');

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

/**
 * The request's head: the body waits for the core's `100 Continue` (a core that never reads the
 * head never gets the call), and the core closes the connection when the call is done.
 */
function encodeRequestHead(credential: ServeCredential, host: string, body: string): string {
  return [
    'POST /ws HTTP/1.1',
    `Host: ${host}`,
    `Authorization: ${authorizationHeader(credential)}`,
    'Content-Type: application/json',
    'Accept: application/x-ndjson',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Expect: 100-continue',
    'Connection: close',
    '',
    '',
  ].join('\r\n');
}

/**
 * One contract call relayed to the resident core over loopback: `POST /ws`, serve.json's credential
 * as `Authorization: Bearer`. Unreachable (refused, wrong token, not a Vigil core, no answer to the
 * connection): the call never ran, and the caller may work in-process. A core that dies after
 * taking the call rejects with `disconnected`: it may have run, so it must not be repeated.
 *
 * Spoken as plain HTTP/1.1 on a socket rather than through `node:http`: every `vigil` command and
 * agent hook that relays starts a process, and node:http's dozen modules cost each one ~6 ms of
 * CPU (docs/benchmarks.md); one request and one answer need none of them. The body goes only after
 * the core's `100 Continue` (Node's server sends it when it reads the head), so a core that is
 * stopped or stuck never gets a call the command then runs in-process.
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
    let isBodySent = false;
    socket.once('connect', () => {
      clearTimeout(waitTimer);
      // Until the body is sent the core cannot have the call, so giving up then never runs it twice.
      waitTimer = setTimeout(() => {
        if (!isBodySent) settle({ kind: 'unreachable', reason: silentPeerReason(credential, answerTimeoutMs) });
      }, answerTimeoutMs);
      // Not half-closed: Node's server drops a request whose client ends its side before the answer.
      socket.write(encodeRequestHead(credential, origin.host, body));
    });
    const frames = frameReader(options);
    let refusedText = '';
    readHttpAnswer(socket, {
      onInterim: (answer) => {
        if (answer.status !== 100 || isBodySent || isSettled) return;
        isBodySent = true;
        clearTimeout(waitTimer);
        socket.write(body);
      },
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
      onEnd: (error) => settle(endOutcome(credential, { head, error, refusedText, result: frames.result() })),
    });
  });
}

/** What an answer that ended comes to. */
function endOutcome(
  credential: ServeCredential,
  answer: {
    readonly head: AnswerHead | undefined;
    readonly error: NodeJS.ErrnoException | undefined;
    readonly refusedText: string;
    readonly result: Result<unknown> | undefined;
  },
): RelayOutcome | Error {
  const { head, result } = answer;
  // No answer at all: the call never reached a handler (the core sends its head before dispatching).
  if (head === undefined) return { kind: 'unreachable', reason: unreachableReason(credential, answer.error) };
  if (head.status !== 200)
    return {
      kind: 'unreachable',
      reason: `the core refused the request (HTTP ${head.status}: ${refusal(answer.refusedText)})`,
    };
  return result === undefined ? disconnected(credential) : { kind: 'answered', result };
}

function silentPeerReason(credential: ServeCredential, ms: number): string {
  return `${credential.origin} accepted the connection but did not ask for the call within ${ms} ms (a Vigil core asks at once), so the call was never sent`;
}

function unreachableReason(credential: ServeCredential, error: NodeJS.ErrnoException | undefined): string {
  if (error === undefined) return `${credential.origin} closed the connection without answering`;
  return `${credential.origin} refused the connection (${error.code ?? error.message})`;
}
