import type { OverwriteNotice } from '../../shared/contract/call-collision-contract';
import type { SessionRecord } from './session-records';

/** How many of the latest overwrites a session's summary carries. */
export const overwriteLimit = 5;

/** What finding the overwritten call reads of a session's state. */
interface CallsOf {
  readonly calls: ReadonlyMap<
    number,
    {
      readonly record: { readonly turn: number; readonly arguments: unknown };
      readonly result?: { readonly result: { readonly ok: boolean }; readonly effects?: readonly { path: string }[] };
    }
  >;
}

/**
 * The call of this session whose change was overwritten: its latest call (in the recorded turn,
 * when known) whose effects name the file; else, in that turn, its latest call that succeeded.
 */
export function overwrittenCall(
  state: CallsOf,
  record: Extract<SessionRecord, { type: 'overwritten' }>,
): number | undefined {
  let fallback: number | undefined;
  let found: number | undefined;
  for (const [seq, call] of state.calls) {
    if (record.turn !== undefined && call.record.turn !== record.turn) continue;
    if (call.result?.effects?.some((effect) => effect.path === record.notice.path) === true)
      found = Math.max(found ?? 0, seq);
    else if (record.turn !== undefined && call.result?.result.ok === true) fallback = Math.max(fallback ?? 0, seq);
  }
  return found ?? fallback;
}

/**
 * Applies an `overwritten` record: the notice joins the session's overwrites and is attached to
 * the call that made the change (see `overwrittenCall`). Gives that call's sequence number.
 */
export function attachOverwrite(
  state: CallsOf & {
    readonly overwrites: OverwriteNotice[];
    readonly overwrittenCalls: Map<number, OverwriteNotice[]>;
  },
  record: Extract<SessionRecord, { type: 'overwritten' }>,
): number | undefined {
  state.overwrites.push(record.notice);
  const seq = overwrittenCall(state, record);
  if (seq !== undefined) state.overwrittenCalls.set(seq, [...(state.overwrittenCalls.get(seq) ?? []), record.notice]);
  return seq;
}

/** The latest overwrites, newest first (at most `overwriteLimit`). */
export function latestOverwrites(overwrites: readonly OverwriteNotice[]): OverwriteNotice[] {
  return overwrites.slice(-overwriteLimit).reverse();
}
