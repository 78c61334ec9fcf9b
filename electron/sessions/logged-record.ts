import { secretPathReason } from '../checkpoints';
import { condenseProse, condenseResult, condenseValue } from './logged-value';
import type { SessionRecord } from './session-records';
import { relativeInside } from '../lib';

type CallRecord = Extract<SessionRecord, { type: 'call' }>;

/** A path as the secret patterns judge it: relative to its root when known, so a root's own name never counts. */
function judged(absolute: string, root: string | undefined): string {
  if (root === undefined) return absolute;
  const relative = relativeInside(root, absolute);
  return relative === undefined || relative === '' ? absolute : relative;
}

/** Paths a call names: its `path` argument and, for a command, the paths it touched. */
export interface CallPaths {
  readonly arguments: unknown;
  /** Absolute paths with their workspace root, when the call was prepared. */
  readonly resolved?: readonly { readonly absolute: string; readonly root?: string }[];
  /** Relative paths it may have changed (a session record's `touched`). */
  readonly relative?: readonly string[];
}

/** Why a call's contents must not be kept (it touched a secret path), or undefined when they may be previewed. */
export function callSecretReason(call: CallPaths): string | undefined {
  const named =
    typeof call.arguments === 'object' && call.arguments !== null
      ? (call.arguments as Record<string, unknown>)['path']
      : undefined;
  const candidates = [
    ...(typeof named === 'string' ? [named] : []),
    ...(call.resolved ?? []).map((item) => judged(item.absolute, item.root)),
    ...(call.relative ?? []),
  ];
  for (const candidate of candidates) {
    const reason = secretPathReason(candidate);
    if (reason !== undefined) return `${candidate}: ${reason}`;
  }
  return undefined;
}

/** Whether a `call` record touched a secret path (its `path` argument, or the paths it touched). */
export function isSecretCallRecord(record: CallRecord): boolean {
  return (
    callSecretReason({
      arguments: record.arguments,
      relative: record.touched.flatMap((touched) => touched.paths ?? []),
    }) !== undefined
  );
}

/**
 * A record as a session keeps it: a call's arguments and a result condensed (a secret call's
 * contents withheld), messages masked and capped. Records written by this version are condensed
 * already and come back unchanged; a log written before keeps its verbatim contents on disk, but
 * they never reach memory, the history or the UI.
 */
export function condenseRecord(record: SessionRecord, isSecretCall: (seq: number) => boolean): SessionRecord {
  switch (record.type) {
    case 'call':
      return { ...record, arguments: condenseValue(record.arguments, { isSecret: isSecretCallRecord(record) }) };
    case 'result':
      return { ...record, result: condenseResult(record.result, { isSecret: isSecretCall(record.seq) }) };
    case 'message':
      return { ...record, text: condenseProse(record.text) };
    default:
      return record;
  }
}
