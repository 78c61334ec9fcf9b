import type { Disposer } from '../lib';
import type { SessionRecord } from './session-records';
import type { SessionState } from './session-state';

/**
 * The narrow port through which the executor and the hooks log tool calls: they write records; the
 * registry (which implements it) updates the live state and announces each finished call
 * (`sessions:tool-called`), as it announces every other `sessions:*` event.
 */
export interface CallLog {
  /** A session's live state, reconnecting it first unless `isRevived` is false. */
  activeState(sessionId: string, options?: { readonly isRevived?: boolean }): Promise<SessionState>;
  /** Marks a batch of calls as running until the returned function is called. */
  startRunning(sessionId: string): Disposer<void>;
  /** The current turn, beginning one when none is open. */
  ensureTurn(sessionId: string): Promise<number>;
  /** The next call sequence number of a session. */
  nextSeq(sessionId: string): number;
  /** Writes call records and updates the live state (`durable: false` waits for the write only). */
  record(sessionId: string, records: readonly SessionRecord[], options?: { readonly durable?: boolean }): Promise<void>;
}
