import type { BigIntStats } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { syncDirectory, writeFileAtomic } from '../files';
import { ownStartTime, processStart } from '../lib';
import type { Logger } from '../logging';

/**
 * The mode a placeholder folder is given once made: the sticky bit, which no tool sets on a folder
 * in a project. With its path in a record and its birth after the record's, it is how a
 * placeholder a killed process left is told from anything a user put there.
 */
export const placeholderMode = 0o1755;

/** A placeholder as made, known to the process that made it: the identity that tells it from anything put there since. */
export interface MadePlaceholder {
  readonly path: string;
  readonly dev: bigint;
  readonly ino: bigint;
  /** This process's mark of use inside it (an empty folder): while it is there, no other process's rmdir removes the placeholder. */
  readonly pin?: string;
}

/**
 * One process's record: every path where it may have a placeholder. Written (and synced) only
 * when a path is new to it, so a command in a root seen before writes nothing.
 */
interface PlaceholderRecord {
  readonly pid: number;
  /** The process's start (boot id and ticks): a pid reused by another process does not own the record. */
  readonly startedAt: string;
  /** When the record was first written (ns since the epoch): every placeholder of the process is born after it. */
  readonly since: string;
  readonly paths: readonly string[];
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

/**
 * The name of a process's mark of use inside a placeholder it binds (see `pinPlaceholder`): an
 * empty folder (a checkpoint stores nothing of it) named after the process's record.
 */
function pinName(recordFile: string): string {
  return `${pinPrefix}${path.basename(recordFile, recordSuffix)}`;
}

const pinPrefix = '.vigil-in-use-';

/**
 * Marks a placeholder as in use by this process before a sandbox binds it: a folder inside it,
 * so that another process's rmdir of it (its maker ending its last command, or a start clearing a
 * dead one's record) fails while this process's command runs. A placeholder removed from outside
 * while a sandbox holds it read-only detaches the mount there, and the command could then write
 * the protected path. Resolves with the pin, or undefined when the placeholder is gone.
 */
export async function pinPlaceholder(folder: string, placeholder: string): Promise<string | undefined> {
  const pin = path.join(placeholder, pinName((await ownRecordFile(folder)).file));
  try {
    await mkdir(pin, { mode: 0o700 });
    return pin;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EEXIST' ? pin : undefined;
  }
}

/** What this process has recorded durably, per record folder. */
const recorded = new Map<string, { readonly since: string; readonly paths: Set<string> }>();

/**
 * Makes sure `paths` are in this process's record before a placeholder is made at any of them:
 * written atomically and synced with its folder when one is new, else nothing is written.
 */
export async function recordPlaceholderPaths(folder: string, paths: readonly string[]): Promise<void> {
  const known = recorded.get(folder);
  if (known !== undefined && paths.every((candidate) => known.paths.has(candidate))) return;
  const since = known?.since ?? String(BigInt(Date.now()) * 1_000_000n);
  const all = new Set([...(known?.paths ?? []), ...paths]);
  if (known === undefined) {
    const created = await mkdir(folder, { recursive: true, mode: 0o700 });
    if (created !== undefined) await syncDirectory(path.dirname(created), 'follow');
  }
  const { file, startedAt } = await ownRecordFile(folder);
  const record: PlaceholderRecord = { pid: process.pid, startedAt, since, paths: [...all] };
  await writeFileAtomic(file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  recorded.set(folder, { since, paths: all });
}

/** Removes this process's records (it has no placeholder left on disk): the next start then has nothing to look at. */
export async function forgetPlaceholderPaths(): Promise<void> {
  for (const folder of recorded.keys()) await rm((await ownRecordFile(folder)).file, { force: true });
  recorded.clear();
}

/** Whether an entry is a placeholder as Vigil makes them: a folder with the placeholder mode. */
export function isPlaceholderFolder(info: BigIntStats): boolean {
  return info.isDirectory() && (Number(info.mode) & 0o7777) === placeholderMode;
}

/** How far before the record's time a placeholder's birth may fall (coarse file times lag the clock, ns). */
const birthSlack = 50_000_000n;

/** Removes a placeholder a stopped process left, if it still is one: marked, born after its record, empty (rmdir). */
async function removeLeftover(at: string, since: bigint): Promise<boolean> {
  const info = await lstat(at, { bigint: true }).catch(() => undefined);
  if (info === undefined || !isPlaceholderFolder(info)) return false;
  if (info.birthtimeNs > 0n && info.birthtimeNs < since - birthSlack) return false;
  return rmdir(at).then(
    () => true,
    () => false,
  );
}

/** Whether a path still holds a placeholder that another process marks as in use (and nothing else). */
async function isPinned(at: string): Promise<boolean> {
  const info = await lstat(at, { bigint: true }).catch(() => undefined);
  if (info === undefined || !isPlaceholderFolder(info)) return false;
  const names = await readdir(at).catch(() => [] as string[]);
  return names.length > 0 && names.every((name) => name.startsWith(pinPrefix));
}

/**
 * Whether a placeholder this process found (made by another) is one some other process of this
 * data folder recorded before it was born: only such a one is removed by the last process to leave
 * it, never a marked folder a user made.
 */
export async function isRecordedByAnother(folder: string, at: string): Promise<boolean> {
  const info = await lstat(at, { bigint: true }).catch(() => undefined);
  if (info === undefined || !isPlaceholderFolder(info)) return false;
  const own = (await ownRecordFile(folder)).file;
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    const file = path.join(folder, name);
    if (!name.endsWith(recordSuffix) || file === own) continue;
    const record = parseRecord(await readFile(file, 'utf8').catch(() => ''));
    if (record === undefined || !record.paths.includes(at)) continue;
    if (info.birthtimeNs === 0n || info.birthtimeNs >= BigInt(record.since) - birthSlack) return true;
  }
  return false;
}

function parseRecord(text: string): PlaceholderRecord | undefined {
  try {
    const record = JSON.parse(text) as Partial<PlaceholderRecord>;
    if (typeof record.pid !== 'number' || typeof record.startedAt !== 'string') return undefined;
    if (typeof record.since !== 'string' || !/^\d+$/u.test(record.since) || !Array.isArray(record.paths))
      return undefined;
    return record as PlaceholderRecord;
  } catch {
    return undefined;
  }
}

/** Whether the process that wrote a record still runs (it may still have sandboxes on its placeholders). */
async function isOwnerRunning(record: PlaceholderRecord): Promise<boolean> {
  const start = await processStart(record.pid);
  if (start === undefined) return process.platform !== 'linux' && record.pid > 0;
  return start.startedAt === record.startedAt && !start.hasExited;
}

/**
 * Removes the placeholders that processes which stopped without removing them (killed, a power
 * cut) left in users' projects, each only if it still is one (never anything a user put there or
 * filled), and says so in one log line. Records of processes still running are left to them.
 * Never rejects.
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
      let isKept = false;
      // Deepest first: a placeholder made inside another goes before it.
      const deepestFirst = [...(record?.paths ?? [])].sort((a, b) => b.length - a.length);
      for (const at of deepestFirst) {
        if (typeof at !== 'string') continue;
        // The stopped process's mark of use goes first; another running process's keeps the placeholder.
        await rmdir(path.join(at, pinName(file))).catch(() => undefined);
        if (await removeLeftover(at, BigInt(record?.since ?? '0'))) removed.push(at);
        else if (await isPinned(at)) isKept = true;
      }
      // A placeholder a running process still binds keeps the record: that process removes it when it leaves (isRecordedByAnother).
      if (!isKept) await rm(file, { force: true });
      if (removed.length > 0)
        logger.info('removed the sandbox placeholders a stopped process left in projects', {
          pid: record?.pid,
          removed,
        });
    } catch (error) {
      logger.warn('could not clear a record of sandbox placeholders', { file, error });
    }
  }
}
