import WebSocket from 'ws';
import { AppError } from '../shared/errors';
import {
  fromJsonRpcError,
  jsonRpcRequestSchema,
  jsonRpcResponseSchema,
  maxAgentFrameBytes,
  type JsonRpcId,
} from '../shared/agent-protocol/json-rpc';

/** Where the server is and how to prove who we are. */
export interface JsonRpcEndpoint {
  /** `ws://127.0.0.1:PORT/agent` (an `http://` base URL of `vigil serve` is accepted and completed). */
  readonly url: string;
  /** An agent credential (`vigil connect --credential NAME` prints one); the UI's credential is refused. */
  readonly token: string;
}

/** A notification from the server: its method and (unvalidated) params. */
export type NotificationHandler = (method: string, params: unknown) => void;

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: AppError) => void;
}

/** `http://host:port/` or `ws://host:port` → `ws://host:port/agent`. */
export function agentSocketUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol === 'http:') parsed.protocol = 'ws:';
  if (parsed.protocol === 'https:') parsed.protocol = 'wss:';
  if (parsed.pathname === '/' || parsed.pathname === '') parsed.pathname = '/agent';
  parsed.searchParams.delete('token');
  parsed.hash = '';
  return parsed.toString();
}

/**
 * One WebSocket carrying JSON-RPC 2.0: requests matched to responses by id, notifications handed
 * to a callback. It does not reconnect; `VigilAgentClient` does that on top.
 */
export class JsonRpcConnection {
  readonly #socket: WebSocket;
  readonly #pending = new Map<JsonRpcId, Pending>();
  #nextId = 1;
  #closeReason: string | undefined;

  private constructor(socket: WebSocket, onNotification: NotificationHandler, onClose: (reason: string) => void) {
    this.#socket = socket;
    socket.on('message', (data, isBinary) => {
      if (!isBinary) this.#receive(rawText(data), onNotification);
    });
    socket.on('close', (code, reason) => {
      this.#closeReason = `the connection to Vigil closed (${code}${reason.length > 0 ? `: ${reason.toString()}` : ''})`;
      const error = new AppError(
        'disconnected',
        `${this.#closeReason} before the answer came; the call may or may not have run.`,
      );
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
      onClose(this.#closeReason);
    });
    socket.on('error', () => undefined);
  }

  /** Opens the socket; rejects with `unauthorized`, `disconnected` or `not_found` when it cannot. */
  static open(
    endpoint: JsonRpcEndpoint,
    onNotification: NotificationHandler,
    onClose: (reason: string) => void,
  ): Promise<JsonRpcConnection> {
    const url = agentSocketUrl(endpoint.url);
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, {
        headers: { authorization: `Bearer ${endpoint.token}` },
        maxPayload: maxAgentFrameBytes,
        perMessageDeflate: false,
      });
      socket.once('unexpected-response', (_request, response) => {
        const status = response.statusCode ?? 0;
        socket.terminate();
        reject(
          status === 401 || status === 403
            ? new AppError(
                'unauthorized',
                status === 401
                  ? `Vigil refused the agent credential for ${url}: it is unknown or was revoked. Get one with "vigil connect --credential NAME".`
                  : `Vigil refused this credential for ${url}: it is not an agent credential (the UI's is refused here). Get one with "vigil connect --credential NAME".`,
                { status },
              )
            : new AppError(status === 404 ? 'not_found' : 'disconnected', `Vigil answered ${status} to ${url}.`, {
                status,
              }),
        );
      });
      socket.once('error', (error) => {
        reject(
          new AppError('disconnected', `Cannot reach Vigil at ${url}: ${error.message}. Is "vigil serve" running?`),
        );
      });
      socket.once('open', () => {
        socket.removeAllListeners('error');
        socket.removeAllListeners('unexpected-response');
        resolve(new JsonRpcConnection(socket, onNotification, onClose));
      });
    });
  }

  /** Whether the socket is still open. */
  get isOpen(): boolean {
    return this.#closeReason === undefined && this.#socket.readyState === WebSocket.OPEN;
  }

  /** Sends a request and resolves with its `result`, or rejects with the server's error as an AppError. */
  request(method: string, params: unknown): Promise<unknown> {
    if (!this.isOpen) {
      return Promise.reject(
        new AppError('disconnected', `${this.#closeReason ?? 'the connection to Vigil is not open'}.`),
      );
    }
    const id = this.#nextId;
    this.#nextId += 1;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }), (error) => {
        if (!(error instanceof Error)) return;
        this.#pending.delete(id);
        reject(new AppError('disconnected', `Could not send ${method} to Vigil: ${error.message}.`));
      });
    });
  }

  /** Closes the socket; pending requests reject with `disconnected`. */
  close(): Promise<void> {
    if (this.#socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.#socket.once('close', () => resolve());
      this.#socket.close(1000, 'client closed');
    });
  }

  #receive(text: string, onNotification: NotificationHandler): void {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return;
    }
    const response = jsonRpcResponseSchema.safeParse(raw);
    if (response.success) {
      const message = response.data;
      if (message.id === null) return;
      const pending = this.#pending.get(message.id);
      if (pending === undefined) return;
      this.#pending.delete(message.id);
      if ('error' in message) {
        const data = fromJsonRpcError(message.error);
        pending.reject(new AppError(data.code, data.message, data.details));
      } else {
        pending.resolve(message.result);
      }
      return;
    }
    const request = jsonRpcRequestSchema.safeParse(raw);
    if (request.success && request.data.id === undefined) onNotification(request.data.method, request.data.params);
  }
}

function rawText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
