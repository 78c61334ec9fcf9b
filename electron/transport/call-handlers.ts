import type { CallName, CallResponse, ParsedCallRequest } from '../../shared/contract';

/** Who is calling: lets handlers attribute work and transports scope their state. */
export interface CallContext {
  /** `http`: one call per request on `/ws` (the CLI relaying to a resident core); `cli`: a one-shot core in the CLI's own process. */
  readonly transport: 'ipc' | 'websocket' | 'http' | 'cli' | 'test';
  /** A stable id for the connection (window, socket) that made the call. */
  readonly clientId: string;
  /**
   * Who is at the other end, where the transport can tell: the app's window (IPC), the served page
   * (a WebSocket whose browser sent this server's own Origin), or a program holding the UI's
   * credential (a WebSocket without Origin: the user's CLI, a script).
   */
  readonly peer?: CallPeer;
}

/** window | page | program: see `CallContext.peer`. */
export type CallPeer = 'window' | 'page' | 'program';

/** The handler of one contract call: receives the parsed request, returns the response value. */
export type CallHandler<C extends CallName> = (
  request: ParsedCallRequest<C>,
  context: CallContext,
) => Promise<CallResponse<C>>;

/** One handler per contract call; a missing handler is a type error. */
export type CallHandlers = { readonly [C in CallName]: CallHandler<C> };

/** The handlers of a subset of calls, as a domain provides them. */
export type PartialCallHandlers<C extends CallName> = { readonly [K in C]: CallHandler<K> };
