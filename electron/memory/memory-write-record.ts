import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../files/atomic-write';
import { sha256Of } from './memory-file';

/**
 * What the last Vigil write of a memory file wrote, kept beside it in `.MEMORY.md.vigil-record`
 * (mode 0600) so that every Vigil process knows it: a watcher recognises another Vigil process's
 * write as Vigil's, and a mutation knows which entries hold text from outside Vigil (those are
 * backed up before a replace or remove takes them out of the file).
 */
export interface MemoryWriteRecord {
  readonly version: 1;
  /** sha256 of the bytes Vigil wrote. */
  readonly sha256: string;
  /** A digest of each entry whose text Vigil authored (added, replaced, adopted), not of entries it carried along. */
  readonly entries: readonly string[];
  readonly writtenAt: string;
  readonly pid: number;
}

const recordSchema = z.object({
  version: z.literal(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  entries: z.array(z.string().regex(/^[0-9a-f]{16}$/)).max(100_000),
  writtenAt: z.string(),
  pid: z.number().int(),
});

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
  const noFollow = constants.O_NOFOLLOW as number | undefined;
  try {
    const handle = await open(writeRecordPath(file), constants.O_RDONLY | (noFollow ?? 0));
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

/** Records the bytes Vigil is about to write and the entries it authored (under the memory lock, before the write). */
export async function writeWriteRecord(file: string, sha256: string, authored: readonly string[]): Promise<void> {
  const record: MemoryWriteRecord = {
    version: 1,
    sha256,
    entries: authored.map(entryDigest),
    writtenAt: new Date().toISOString(),
    pid: process.pid,
  };
  await writeFileAtomic(writeRecordPath(file), `${JSON.stringify(record)}\n`, { mode: 0o600, requireCanonical: true });
}
