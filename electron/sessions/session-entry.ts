import type { PendingToolCall } from '../../shared/contract/pending-call-contract';
import type { SessionStatus, SessionSummary } from '../../shared/contract/sessions-contract';
import type { SessionLogWriter } from './session-log';
import type { SessionBrief } from './session-brief';
import type { SessionState } from './session-state';

/**
 * One session as the registry holds it. Its summary fields (`brief`) are always in memory; its
 * full state (turns, calls) only while an agent is connected, or briefly while something reads
 * or changes it: a closed or disconnected session is unloaded, and read from its log on demand.
 */
export interface SessionEntry {
  readonly id: string;
  readonly file: string;
  brief: SessionBrief;
  isClosed: boolean;
  /** An agent is connected in this process (never after a restart until it resumes, nor after a disconnection). */
  isConnected: boolean;
  state: SessionState | undefined;
  loading: Promise<SessionState> | undefined;
  writer: SessionLogWriter | undefined;
  isTorn: boolean;
  /** Tool-call batches running now. */
  running: number;
  /** The call its agent's hooks answered that waits for its result (live only: never in the log). */
  pendingCall?: PendingToolCall;
}

/**
 * The one state a session's badge shows. A session is working while a turn is open or a call
 * runs (not only while a call runs: an agent thinking inside a turn is working, not idle).
 */
export function entryStatus(entry: SessionEntry, isWaitingForApproval: boolean): SessionStatus {
  if (entry.isClosed) return 'ended';
  if (!entry.isConnected) return 'disconnected';
  if (isWaitingForApproval) return 'waiting-approval';
  return entry.running > 0 || entry.brief.isTurnOpen ? 'working' : 'idle';
}

/** Whether a status means an agent is there. */
export function isConnectedStatus(status: SessionStatus): boolean {
  return status === 'working' || status === 'waiting-approval' || status === 'idle';
}

/** The registry's order: connected sessions first, then the others; each group most recently active first. */
export function compareSummaries(a: SessionSummary, b: SessionSummary): number {
  return (
    Number(!isConnectedStatus(a.status)) - Number(!isConnectedStatus(b.status)) ||
    b.lastActiveAt.localeCompare(a.lastActiveAt) ||
    a.id.localeCompare(b.id)
  );
}
