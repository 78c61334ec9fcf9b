import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { isProcessAlive, processStart, type ProcessStart } from '../lib';

/** Who holds a lock file, as written inside it. */
export interface LockHolder {
  readonly pid: number;
  readonly hostname: string;
  /** Unique per acquisition: tells one holder from a later one with the same pid. */
  readonly token: string;
  readonly acquiredAt: string;
  /** When the holder's process started (Linux: boot id and clock ticks), to tell a reused pid from the holder. */
  readonly startedAt?: string;
  /** What the holder is doing, for error messages ("snapshot of /src/app"). */
  readonly purpose?: string;
}

/** A fresh holder record for this process. */
export function newLockHolder(purpose?: string, startedAt?: string): LockHolder {
  return {
    pid: process.pid,
    hostname: os.hostname(),
    token: randomBytes(12).toString('hex'),
    acquiredAt: new Date().toISOString(),
    // Written to the lock file that other processes (and older Vigils) read: only the fields it has.
    ...(startedAt === undefined ? {} : { startedAt }),
    ...(purpose === undefined ? {} : { purpose }),
  };
}

/** Parses a lock file's content; undefined when it is empty or not a holder record (a damaged file). */
export function parseLockHolder(raw: string): LockHolder | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return undefined;
    const record = value as Record<string, unknown>;
    const { pid, hostname, token, acquiredAt, startedAt, purpose } = record;
    if (
      typeof pid !== 'number' ||
      typeof hostname !== 'string' ||
      typeof token !== 'string' ||
      typeof acquiredAt !== 'string'
    ) {
      return undefined;
    }
    return {
      pid,
      hostname,
      token,
      acquiredAt,
      ...(typeof startedAt === 'string' ? { startedAt } : {}),
      ...(typeof purpose === 'string' ? { purpose } : {}),
    };
  } catch {
    return undefined;
  }
}

/**
 * Whether a live holder on this host is stopped by a signal (Ctrl+Z, SIGSTOP) now: it keeps its
 * lock (see `staleReason`) but cannot finish until it is resumed. Linux only (false elsewhere).
 */
export async function isHolderStopped(
  holder: LockHolder | undefined,
  startOf: (pid: number) => Promise<ProcessStart | undefined> = processStart,
): Promise<boolean> {
  if (holder === undefined || holder.hostname !== os.hostname()) return false;
  const current = await startOf(holder.pid);
  return current?.isStopped === true && (holder.startedAt === undefined || current.startedAt === holder.startedAt);
}

/**
 * Why a lock file is considered abandoned, or undefined while its holder may still be working.
 * A holder on this host is judged by its process: gone, exited, or its pid now names another
 * process (its start time differs). Where start times can be read (Linux), a live one keeps its
 * lock however long it stays silent — suspended, stopped with SIGSTOP, paused in a debugger —
 * since taking it over would make two writers. Where they cannot (`startOf` gives nothing: macOS,
 * Windows), a reused pid looks alive, so, like a holder on another host (a shared folder), it is
 * judged by its heartbeat: a file not refreshed for `staleMs` is abandoned.
 */
export async function staleReason(
  holder: LockHolder | undefined,
  ageMs: number,
  limits: { readonly staleMs: number; readonly garbageMs: number },
  startOf: (pid: number) => Promise<ProcessStart | undefined> = processStart,
): Promise<string | undefined> {
  if (holder === undefined) return ageMs > limits.garbageMs ? 'the lock file is empty or damaged' : undefined;
  const silence = (): string | undefined =>
    ageMs > limits.staleMs
      ? `it was not refreshed for ${Math.round(ageMs / 1000)} s by process ${holder.pid} on ${holder.hostname}`
      : undefined;
  if (holder.hostname !== os.hostname()) return silence();
  if (!isProcessAlive(holder.pid)) return `process ${holder.pid} is no longer running`;
  const current = await startOf(holder.pid);
  if (current === undefined) return silence();
  if (current.hasExited) return `process ${holder.pid} has exited`;
  if (holder.startedAt !== undefined && current.startedAt !== holder.startedAt) {
    return `process ${holder.pid} is no longer running (its pid now names another process)`;
  }
  return undefined;
}

/** Who holds a lock, for messages: "process 12 on host (purpose) since …". */
export function describeHolder(by: LockHolder | undefined): string {
  return by === undefined
    ? 'another process'
    : `process ${by.pid} on ${by.hostname}${by.purpose === undefined ? '' : ` (${by.purpose})`} since ${by.acquiredAt}`;
}
