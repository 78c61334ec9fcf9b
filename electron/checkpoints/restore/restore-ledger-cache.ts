import type { Actor } from '../../../shared/contract/actor-model';
import type { FileIdentity } from '../../files';
import type { LedgerRecord, ObservedVersion } from './restore-write-ledger';

/** What the ledger keeps per path: the last line's identity, time and actor. */
export interface LastVersion {
  readonly identity: FileIdentity | null;
  readonly record: LedgerRecord;
}

/** What a ledger process last read of the file: its identity, how far whole lines were read, and the last version per path. */
export interface LedgerCache {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  /** Bytes of the file up to and including its last newline when it was read. */
  readonly consumed: number;
  readonly last: ReadonlyMap<string, LastVersion>;
}

/** Lines this process appended, as `withOwnAppend` takes them. */
export interface OwnAppend {
  readonly versions: readonly ObservedVersion[];
  readonly actor: Actor;
  readonly at: number;
  readonly bytes: number;
  /** The restore point of the restore that wrote them, if a restore did. */
  readonly restorePoint?: string | undefined;
}

/**
 * The cache with lines this process just appended taken in without reading them back (a
 * restore's plan views the ledger right after the previous restore appended its 100s of lines),
 * or undefined: only when the file (`stats`, after the append) grew by exactly those bytes since
 * it was last read whole, so no other process's line is skipped.
 */
export function withOwnAppend(
  cache: LedgerCache | undefined,
  stats: { readonly ino: number; readonly size: number; readonly mtimeMs: number } | undefined,
  appended: OwnAppend,
): LedgerCache | undefined {
  if (stats === undefined || cache === undefined || cache.ino !== stats.ino || cache.size !== cache.consumed)
    return undefined;
  if (stats.size !== cache.consumed + appended.bytes) return undefined;
  const last = new Map(cache.last);
  const record = {
    actor: appended.actor,
    at: appended.at,
    ...(appended.restorePoint !== undefined && { restorePoint: appended.restorePoint }),
  };
  for (const version of appended.versions) last.set(version.path, { identity: version.identity ?? null, record });
  return { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, consumed: stats.size, last };
}
