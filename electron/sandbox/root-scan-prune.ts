import { lstat, open, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** Files of the scan store kept: past it, the least recently used (by mtime, touched on every use) is removed. */
export const maxStoredScans = 64;

/** A temp file older than this is a crashed writer's leftover (a live write takes milliseconds). */
const staleTempMs = 10 * 60_000;

/** Bytes read from the head of a stored file to learn its root (a path is at most 4 KiB, escaped at most 6 bytes a byte). */
const headBytes = 32 * 1024;

/** A stored scan's name: the hash of its root (see root-scan-store.ts); anything else in the folder is left alone. */
const storedName = /^[0-9a-f]{32}\.json$/;
const tempName = /^[0-9a-f]{32}\.json\.[0-9]+\.[0-9a-f]+\.tmp$/;
const rootField = /^\{"version":[0-9]+,"root":("(?:[^"\\]|\\.)*")/;

/** The root a stored file is for, read from its head (JSON.stringify writes `version` then `root` first); undefined if unreadable. */
async function storedRoot(file: string): Promise<string | undefined> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const buffer = Buffer.alloc(headBytes);
    const { bytesRead } = await handle.read(buffer, 0, headBytes, 0);
    const match = rootField.exec(buffer.subarray(0, bytesRead).toString('utf8'));
    const root: unknown = match?.[1] === undefined ? undefined : JSON.parse(match[1]);
    return typeof root === 'string' ? root : undefined;
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** A stored file worth keeping: its root still exists; with when it was last used. */
async function kept(file: string): Promise<{ readonly file: string; readonly usedMs: number } | undefined> {
  const [info, root] = await Promise.all([stat(file).catch(() => undefined), storedRoot(file)]);
  if (info === undefined || root === undefined) return undefined;
  const rootInfo = await lstat(root).catch(() => undefined);
  return rootInfo?.isDirectory() === true ? { file, usedMs: info.mtimeMs } : undefined;
}

/**
 * Bounds the scan store: removes the files of roots that no longer exist (or that cannot be read),
 * all but the `maxFiles` most recently used, and temp files a crashed writer left. Run when a save
 * adds a file (the only time the count grows): one readdir, and a stat and a 32 KiB read per file.
 * Best effort: a file that cannot be removed is left for the next prune.
 */
export async function pruneRootScans(folder: string, maxFiles = maxStoredScans, nowMs = Date.now()): Promise<void> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const remove = (file: string): Promise<void> => rm(file, { force: true }).catch(() => undefined);
  const temps = names.filter((name) => tempName.test(name)).map((name) => path.join(folder, name));
  await Promise.all(
    temps.map(async (file) => {
      const info = await stat(file).catch(() => undefined);
      if (info !== undefined && info.mtimeMs < nowMs - staleTempMs) await remove(file);
    }),
  );
  const stored = names.filter((name) => storedName.test(name)).map((name) => path.join(folder, name));
  const checked = await Promise.all(stored.map(async (file) => ({ file, keep: await kept(file) })));
  const live = checked.flatMap(({ keep }) => (keep === undefined ? [] : [keep]));
  live.sort((left, right) => right.usedMs - left.usedMs);
  const dropped = new Set(live.slice(maxFiles).map((entry) => entry.file));
  for (const { file, keep } of checked) if (keep === undefined) dropped.add(file);
  await Promise.all([...dropped].map(remove));
}
