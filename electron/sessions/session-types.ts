import type { PlainActor } from '../../shared/contract/actor-model';
import type { FileInFolder } from './session-rewinder';
/**
 * The session service's API, as the gateway (MCP, JSON-RPC), the executor, the CLI and the UI
 * handlers call it. Stable: change it only additively.
 *
 *   open({ agent, roots, cwd?, client?, sessionId? })  → SessionSummary   (sessionId resumes a session from the log)
 *   setRoots(sessionId, roots, cwd?)                  → SessionSummary   (MCP roots/list arriving after open)
 *   close(sessionId)                                  → SessionSummary   (ended: the agent or the user closed it)
 *   disconnect(sessionId, reason)                     → SessionSummary   (the agent went away without closing)
 *   reconnect(sessionId)                              → SessionSummary   (a request on a disconnected session revives it)
 *   list() / get(sessionId)                           → SessionSummary[] / SessionSummary   (the sessions read so far)
 *   olderCount() / loadOlder()                        → number / void    (sessions on disk not read at start-up)
 *   beginTurn(sessionId, { userMessage? })            → { turn }        (ends an open turn first)
 *   endTurn(sessionId)                                → void            (no-op when no turn is open)
 *   appendMessage(sessionId, { role, text })          → void            (opens a turn when none is open)
 *   history(sessionId)                                → Promise<SessionHistory>  (read from the log when unloaded; rewound turns marked)
 *   planRewind(sessionId, toTurn, mode)               → RewindPlan      (changes nothing)
 *   rewind(sessionId, toTurn, mode, { planId? })      → RewindOutcome
 *   onRewound(listener) / onChanged(listener)         → Disposer<void>
 *
 * Turn numbers start at 1 and are never reused: after a rewind to turn 3 of 5, the next turn is 6.
 * Every method validates its input and throws AppErrors (`not_found` for an unknown session,
 * `conflict` for a closed one, `invalid_request` naming the field).
 */
import type { Disposer } from '../lib';
import type {
  RewindMode,
  RewindOutcome,
  RewindPlan,
  RewindRecord,
  SessionHistory,
  SessionSummary,
  TurnBrief,
} from '../../shared/contract/sessions-contract';

export type {
  RewindMode,
  RewindOutcome,
  RewindPlan,
  RewindRecord,
  SessionHistory,
  SessionSummary,
} from '../../shared/contract/sessions-contract';

/** What an agent (or the gateway on its behalf) gives to open a session. */
export interface OpenSessionRequest {
  /** The agent's name, shown in the UI and written into checkpoint trailers (`Vigil-Agent`). */
  readonly agent: string;
  /** Workspace roots (absolute, or relative to `cwd`); each must exist. May be empty until known. */
  readonly roots: readonly string[];
  /** Working directory; must be inside a root. Defaults to the first root. */
  readonly cwd?: string;
  /** The client software, when it said (`claude-code 1.2`). */
  readonly client?: string;
  /** The agent's own transcript of the session (Claude Code's and Gemini CLI's `transcript_path`), when it keeps one. */
  readonly transcriptPath?: string;
  /** Resume this session (after a reconnect or a restart) instead of creating one. */
  readonly sessionId?: string;
}

/** What a turn starts with. */
export interface BeginTurnRequest {
  readonly userMessage?: string;
}

/** A transcript message. */
export interface AppendMessageRequest {
  readonly role: 'user' | 'assistant';
  readonly text: string;
}

/** A rewind as the gateway forwards it to the session's connected agent. */
export interface SessionRewoundEvent {
  readonly sessionId: string;
  readonly rewind: RewindRecord;
  /** The canonical history after the rewind. */
  readonly history: SessionHistory;
}

/** Sessions: the live registry, their append-only logs, turns and turn undo. */
export interface SessionService {
  open(request: OpenSessionRequest): Promise<SessionSummary>;
  setRoots(sessionId: string, roots: readonly string[], cwd?: string): Promise<SessionSummary>;
  close(sessionId: string): Promise<SessionSummary>;
  disconnect(sessionId: string, reason: string): Promise<SessionSummary>;
  reconnect(sessionId: string): Promise<SessionSummary>;
  list(): readonly SessionSummary[];
  olderCount(): number;
  loadOlder(): Promise<void>;
  get(sessionId: string): SessionSummary;
  beginTurn(sessionId: string, request?: BeginTurnRequest): Promise<{ readonly turn: number }>;
  endTurn(sessionId: string): Promise<void>;
  appendMessage(sessionId: string, message: AppendMessageRequest): Promise<void>;
  history(sessionId: string): Promise<SessionHistory>;
  /** What some turns were about (their user message, their calls); unknown sessions and turns are left out. */
  turns(requests: readonly { readonly sessionId: string; readonly turn: number }[]): Promise<TurnBrief[]>;
  planRewind(sessionId: string, toTurn: number, mode: RewindMode): Promise<RewindPlan>;
  /** `actor`: who asked (the app or the CLI); its restore points and the write ledger name them. */
  rewind(
    sessionId: string,
    toTurn: number,
    mode: RewindMode,
    options?: { readonly planId?: string; readonly actor?: PlainActor; readonly overwrite?: readonly FileInFolder[] },
  ): Promise<RewindOutcome>;
  onRewound(listener: (event: SessionRewoundEvent) => void): Disposer<void>;
  onChanged(listener: (session: SessionSummary) => void): Disposer<void>;
}
