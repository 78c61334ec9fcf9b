import { randomBytes } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { lazySchema } from '../../shared/lazy-schema';
import { liveReadFlags, writeFileAtomic } from '../files';
import { isProcessAlive } from '../lib';
import { sha256Of } from './memory-file';

/** One version of a memory file a Vigil writer put on disk. */
export interface RecordedWrite {
  /** sha256 of the bytes written. */
  readonly sha256: string;
  /** The memory service that wrote it (a random id per service; several can share a process). */
  readonly writer: string;
  readonly pid: number;
  readonly writtenAt: string;
  /** A restore of a checkpoint wrote it, not a memory call. */
  readonly isRestore: boolean;
}

/**
 * What recent Vigil writes of a memory file wrote, kept beside it in `.MEMORY.md.vigil-record`
 * (mode 0600) so that every Vigil process knows it: a watcher recognises another Vigil writer's
 * version as Vigil's even when a third write followed at once, and a mutation knows which entries
 * hold text from outside Vigil (those are backed up before a replace or remove takes them out).
 */
export interface MemoryWriteRecord {
  readonly version: 2;
  /** A digest of each entry whose text Vigil authored (added, replaced, adopted) in the newest write. */
  readonly entries: readonly string[];
  /** The newest writes first, at most `maxRecentWrites`. */
  readonly recent: readonly RecordedWrite[];
  /** A restore that is writing the file right now (its versions are recorded when it is done). */
  readonly restoring?: { readonly writer: string; readonly pid: number; readonly since: string };
}

/** How many writes the record remembers: enough for a burst of writers, small enough to read on every change. */
export const maxRecentWrites = 32;

const sha256Schema = lazySchema(() => z.string().regex(/^[0-9a-f]{64}$/));
const entriesSchema = lazySchema(() => z.array(z.string().regex(/^[0-9a-f]{16}$/)).max(100_000));

const recordSchema = lazySchema(() =>
  z.union([
    z.object({
      version: z.literal(2),
      entries: entriesSchema,
      recent: z
        .array(
          z.object({
            sha256: sha256Schema,
            writer: z.string().max(64),
            pid: z.number().int(),
            writtenAt: z.string(),
            isRestore: z.boolean(),
          }),
        )
        .max(maxRecentWrites),
      restoring: z.object({ writer: z.string().max(64), pid: z.number().int(), since: z.string() }).optional(),
    }),
    // The first format: the last write only.
    z
      .object({
        version: z.literal(1),
        sha256: sha256Schema,
        entries: entriesSchema,
        writtenAt: z.string(),
        pid: z.number().int(),
      })
      .transform(({ sha256, entries, writtenAt, pid }): MemoryWriteRecord => ({
        version: 2,
        entries,
        recent: [{ sha256, writer: `pid-${pid}`, pid, writtenAt, isRestore: false }],
      })),
  ]),
);

/** A fresh id for one memory writer (a memory service, a restore guard). */
export function newWriterId(): string {
  return randomBytes(8).toString('hex');
}

/** The record file of a memory file. */
export function writeRecordPath(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.vigil-record`);
}

/** A short digest of one entry's text. */
export function entryDigest(entry: string): string {
  return sha256Of(entry).slice(0, 16);
}

/**
 * The record of a memory file, or undefined when there is none or it is unusable (then every
 * entry counts as written outside Vigil: the safe direction). Never follows a symlink.
 */
export async function readWriteRecord(file: string): Promise<MemoryWriteRecord | undefined> {
  try {
    const handle = await open(writeRecordPath(file), liveReadFlags);
    try {
      const text = await handle.readFile('utf8');
      const parsed = recordSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : undefined;
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * Whether another Vigil writer put this version on disk (and whether by a restore): a recorded
 * write of another writer, or a restore by another writer that is still writing (a live process).
 * A version a memory service wrote itself it observed as it wrote it, so finding it again on disk
 * later means someone else put those bytes back (an undo in an editor): not Vigil's doing.
 */
export function writtenByOtherVigil(
  record: MemoryWriteRecord | undefined,
  sha256: string | null,
  writer: string,
): { readonly isRestore: boolean } | undefined {
  if (record === undefined) return undefined;
  const recorded =
    sha256 === null ? undefined : record.recent.find((write) => write.sha256 === sha256 && write.writer !== writer);
  if (recorded !== undefined) return { isRestore: recorded.isRestore };
  const { restoring } = record;
  return restoring !== undefined && restoring.writer !== writer && isProcessAlive(restoring.pid)
    ? { isRestore: true }
    : undefined;
}

/** What one write adds to the record. */
export interface WriteToRecord {
  readonly sha256: string;
  readonly writer: string;
  /** The entries whose text Vigil authored; undefined keeps the record's (a restore). */
  readonly authored?: readonly string[];
  readonly isRestore?: boolean;
}

async function saveRecord(file: string, record: MemoryWriteRecord): Promise<void> {
  await writeFileAtomic(writeRecordPath(file), `${JSON.stringify(record)}\n`, { mode: 0o600, requireCanonical: true });
}

/**
 * Records a version Vigil is about to write (or, for a restore, just wrote), ending any restore
 * marker: under the memory lock, so writers never lose each other's entries. `previous` is the
 * record as the caller already read it under that lock (read here when not given).
 */
export async function writeWriteRecord(
  file: string,
  write: WriteToRecord,
  previous?: MemoryWriteRecord,
): Promise<void> {
  const record = previous ?? (await readWriteRecord(file));
  const entry: RecordedWrite = {
    sha256: write.sha256,
    writer: write.writer,
    pid: process.pid,
    writtenAt: new Date().toISOString(),
    isRestore: write.isRestore ?? false,
  };
  await saveRecord(file, {
    version: 2,
    entries: write.authored === undefined ? (record?.entries ?? []) : write.authored.map(entryDigest),
    recent: [
      entry,
      ...(record?.recent ?? []).filter((item) => item.sha256 !== write.sha256 || item.writer !== write.writer),
    ].slice(0, maxRecentWrites),
  });
}

/**
 * Marks the file as being restored by `writer` (before a restore writes it, under the memory
 * lock), or ends the mark (removing the record when nothing else is in it): a watcher elsewhere
 * that reads the restored version before the restore records it still knows it as Vigil's restore.
 */
export async function markRestoring(file: string, writer: string | undefined): Promise<void> {
  const previous = await readWriteRecord(file);
  if (writer === undefined && previous?.restoring === undefined) return;
  const { restoring: _ended, ...rest } = previous ?? { version: 2 as const, entries: [], recent: [] };
  if (writer !== undefined)
    await saveRecord(file, { ...rest, restoring: { writer, pid: process.pid, since: new Date().toISOString() } });
  // The mark ends on a file the record knew nothing else of: no empty record stays behind.
  else if (rest.entries.length === 0 && rest.recent.length === 0) await rm(writeRecordPath(file), { force: true });
  else await saveRecord(file, rest);
}
