import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { isProcessAlive } from '../process/is-process-alive';

/** Who holds a lock file, as written inside it. */
export interface LockHolder {
  readonly pid: number;
  readonly hostname: string;
  /** Unique per acquisition: tells one holder from a later one with the same pid. */
  readonly token: string;
  readonly acquiredAt: string;
  /** What the holder is doing, for error messages ("snapshot of /src/app"). */
  readonly purpose?: string;
}

/** A fresh holder record for this process. */
export function newLockHolder(purpose?: string): LockHolder {
  const holder = {
    pid: process.pid,
    hostname: os.hostname(),
    token: randomBytes(12).toString('hex'),
    acquiredAt: new Date().toISOString(),
  };
  return purpose === undefined ? holder : { ...holder, purpose };
}

/** Parses a lock file's content; undefined when it is empty or not a holder record (a writer died mid-write). */
export function parseLockHolder(raw: string): LockHolder | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return undefined;
    const record = value as Record<string, unknown>;
    const { pid, hostname, token, acquiredAt, purpose } = record;
    if (typeof pid !== 'number' || typeof hostname !== 'string' || typeof token !== 'string' || typeof acquiredAt !== 'string') {
      return undefined;
    }
    return typeof purpose === 'string' ? { pid, hostname, token, acquiredAt, purpose } : { pid, hostname, token, acquiredAt };
  } catch {
    return undefined;
  }
}

/** Why a lock file is considered abandoned, or undefined while its holder may still be working. */
export function staleReason(
  holder: LockHolder | undefined,
  ageMs: number,
  limits: { readonly staleMs: number; readonly garbageMs: number },
): string | undefined {
  if (holder === undefined) return ageMs > limits.garbageMs ? 'the lock file is empty or damaged' : undefined;
  if (holder.hostname === os.hostname() && !isProcessAlive(holder.pid)) return `process ${holder.pid} is no longer running`;
  // A live holder refreshes the file's mtime; a silent one is gone (its pid was reused, or it ran
  // on another host sharing this folder).
  if (ageMs > limits.staleMs) return `it was not refreshed for ${Math.round(ageMs / 1000)} s`;
  return undefined;
}
