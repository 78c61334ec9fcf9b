import { lstat, mkdir, readdir, readFile, rm, rmdir } from 'node:fs/promises';
import type { BigIntStats } from 'node:fs';
import path from 'node:path';
import { syncDirectory, writeFileAtomic } from '../files';
import { ownStartTime, processStart } from '../lib';
import type { Logger } from '../logging';

/** A placeholder (an empty folder) as made: where, and the identity that tells it from anything put there since. */
export interface MadePlaceholder {
  readonly path: string;
  readonly dev: string;
  readonly ino: string;
  /** Its birth time in ns (0 where the file system keeps none): an inode number reused later does not match. */
  readonly birth: string;
}

/**
 * A placeholder about to be made, recorded before it is: a process killed between the two leaves
 * it to be recognised by its birth, which falls just after `since` (ns since the epoch).
 */
export interface PendingPlaceholder {
  readonly path: string;
  readonly since: string;
}

/** What a record lists. */
export type RecordedPlaceholder = MadePlaceholder | PendingPlaceholder;

/** How far a pending placeholder's birth may lie before its record's time (coarse file times lag the clock) and after it (ns). */
const pendingBirthWindow = { before: 50_000_000n, after: 5_000_000_000n };

/** One process's record: the placeholders it has made and not removed yet. */
interface PlaceholderRecord {
  readonly pid: number;
  /** The process's start (boot id and ticks): a pid reused by another process does not own the record. */
  readonly startedAt: string;
  readonly placeholders: readonly RecordedPlaceholder[];
}

/** The folder of the data folder where processes that run sandboxed commands record their placeholders (Linux: only bubblewrap needs them). */
export function placeholderRecordFolder(vigilHome: string, platform: NodeJS.Platform): string | undefined {
  return platform === 'linux' ? path.join(vigilHome, 'sandbox', 'placeholders') : undefined;
}

const recordSuffix = '.json';

/** This process's record file: named by pid and start, so that no later process with the same pid writes over it. */
async function ownRecordFile(folder: string): Promise<{ readonly file: string; readonly startedAt: string }> {
  const startedAt = (await ownStartTime()) ?? 'unknown';
  return { file: path.join(folder, `${process.pid}-${startedAt.replace(/[^\w-]/gu, '_')}${recordSuffix}`), startedAt };
}

const madeFolders = new Set<string>();

/**
 * Writes this process's record (atomically, synced with its folder before it returns: the
 * placeholders may be made on disk only once their record would survive a power cut). An empty
 * list removes the record; that removal need not be durable, since a stale entry no longer
 * matches anything on disk.
 */
export async function writePlaceholderRecord(
  folder: string,
  placeholders: readonly RecordedPlaceholder[],
): Promise<void> {
  const { file, startedAt } = await ownRecordFile(folder);
  if (placeholders.length === 0) {
    await rm(file, { force: true });
    return;
  }
  if (!madeFolders.has(folder)) {
    const created = await mkdir(folder, { recursive: true, mode: 0o700 });
    if (created !== undefined) await syncDirectory(path.dirname(created), 'follow');
    madeFolders.add(folder);
  }
  const record: PlaceholderRecord = { pid: process.pid, startedAt, placeholders };
  await writeFileAtomic(file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

function parseRecord(text: string): PlaceholderRecord | undefined {
  try {
    const record = JSON.parse(text) as Partial<PlaceholderRecord>;
    if (typeof record.pid !== 'number' || typeof record.startedAt !== 'string') return undefined;
    if (!Array.isArray(record.placeholders)) return undefined;
    return record as PlaceholderRecord;
  } catch {
    return undefined;
  }
}

/** Whether an entry is the placeholder recorded: the same device, inode and birth; for a pending one, born just after its record. */
function isRecorded(info: BigIntStats, recorded: RecordedPlaceholder): boolean {
  if (!info.isDirectory()) return false;
  if (!('since' in recorded))
    return (
      String(info.dev) === recorded.dev &&
      String(info.ino) === recorded.ino &&
      String(info.birthtimeNs) === recorded.birth
    );
  const since = BigInt(recorded.since);
  const birth = info.birthtimeNs;
  return birth > 0n && birth >= since - pendingBirthWindow.before && birth <= since + pendingBirthWindow.after;
}

/** Removes one placeholder if it is still exactly what was made (or, pending, what was about to be): the same folder, empty. */
export async function removeIfUntouched(recorded: RecordedPlaceholder): Promise<boolean> {
  const info = await lstat(recorded.path, { bigint: true }).catch(() => undefined);
  if (info === undefined || !isRecorded(info, recorded)) return false;
  // rmdir: a folder the user filled since is not empty, and stays.
  return rmdir(recorded.path).then(
    () => true,
    () => false,
  );
}

/** Whether the process that wrote a record still runs (it may still have sandboxes on its placeholders). */
async function isOwnerRunning(record: PlaceholderRecord): Promise<boolean> {
  const start = await processStart(record.pid);
  if (start === undefined) return process.platform !== 'linux' && record.pid > 0;
  return start.startedAt === record.startedAt && !start.hasExited;
}

/**
 * Removes the placeholders that processes which stopped without removing them (killed, a power
 * cut) left in users' projects, each only if it is still exactly what was made (the same empty
 * entry: never anything a user put there or filled), and says so in one log line. Records of
 * processes still running are left to them. Never rejects.
 */
export async function recoverPlaceholders(folder: string, logger: Logger): Promise<void> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const own = await ownRecordFile(folder);
  for (const name of names) {
    const file = path.join(folder, name);
    if (!name.endsWith(recordSuffix) || file === own.file) continue;
    try {
      const record = parseRecord(await readFile(file, 'utf8'));
      if (record !== undefined && (await isOwnerRunning(record))) continue;
      const removed: string[] = [];
      const kept: string[] = [];
      const deepestFirst = [...(record?.placeholders ?? [])].sort((a, b) => b.path.length - a.path.length);
      for (const made of deepestFirst) ((await removeIfUntouched(made)) ? removed : kept).push(made.path);
      await rm(file, { force: true });
      if (removed.length > 0 || kept.length > 0)
        logger.info('removed the sandbox placeholders a stopped process left in projects', {
          pid: record?.pid,
          removed,
          ...(kept.length > 0 && { keptChangedOrGone: kept }),
        });
    } catch (error) {
      logger.warn('could not clear a record of sandbox placeholders', { file, error });
    }
  }
}
