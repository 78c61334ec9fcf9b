import type { PendingToolCall } from '../../shared/contract/pending-call-contract';
import type { SessionRecord } from './session-records';

/**
 * The pending call of a session after some records: gone once its own call is recorded (its result
 * came, it was refused, or it is recorded as never reported), or the turn or the session ends.
 */
export function pendingCallAfter(
  pending: PendingToolCall | undefined,
  records: readonly SessionRecord[],
): PendingToolCall | undefined {
  if (pending === undefined) return undefined;
  const isEnded = records.some(
    (record) =>
      (record.type === 'call' && record.callId === pending.callId) ||
      record.type === 'turn-ended' ||
      record.type === 'closed' ||
      record.type === 'disconnected' ||
      record.type === 'rewound',
  );
  return isEnded ? undefined : pending;
}
