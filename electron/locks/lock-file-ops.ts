import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readdir, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode, noHardLinkCodes, nonBlockingReadFlags } from '../files';
import { parseLockHolder, type LockHolder } from './lock-holder';

/** A lock file (or takeover claim) as one look saw it: its content, inode and age, all of one version. */
export interface ObservedFile {
  readonly raw: string;
  readonly holder: LockHolder | undefined;
  readonly ino: number;
  readonly ageMs: number;
}

/** What a temp file beside a lock file is named: `<lock>.new-<pid>-<hex>`. */
function tempBeside(file: string): string {
  return `${file}.new-${process.pid}-${randomBytes(6).toString('hex')}`;
}

/** Whether a name in the lock's folder is a leftover temp or takeover claim of the lock `base`. */
function isLockLitter(base: string, name: string): boolean {
  return name.startsWith(`${base}.new-`) || name.startsWith(`${base}.takeover-`);
}

/**
 * Creates `file` holding `content` only if nothing is there, never visible half written: the
 * content goes to a temp file first, which is then hard-linked into place (a link never replaces).
 * Where hard links are not supported, falls back to an exclusive create. False when `file` exists.
 */
export async function createExclusive(file: string, content: string): Promise<boolean> {
  const temp = tempBeside(file);
  try {
    await writeFile(temp, content, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(temp, content, { flag: 'wx', mode: 0o600 });
  }
  try {
    await link(temp, file);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    if (!noHardLinkCodes.has(errnoCode(error) ?? '')) throw error;
    return await createByOpen(file, content);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** An exclusive create for file systems without hard links (the content is written just after). */
async function createByOpen(file: string, content: string): Promise<boolean> {
  try {
    const handle = await open(file, 'wx', 0o600);
    try {
      await handle.writeFile(content);
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw error;
  }
}

/** Replaces `file` with `content` in one step (temp file renamed over it): there is never a moment without a file. */
export async function replaceFile(file: string, content: string): Promise<void> {
  const temp = tempBeside(file);
  try {
    await writeFile(temp, content, { flag: 'wx', mode: 0o600 });
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** Reads a lock file: its content, inode and age from one open handle; undefined when there is none. */
export async function observeFile(file: string): Promise<ObservedFile | undefined> {
  let handle;
  try {
    // Never waits on a FIFO put at the name (a lock beside an agent's memory file is in its folder): it reads as empty.
    handle = await open(file, nonBlockingReadFlags);
    const info = await handle.stat();
    const raw = info.isFile() ? await handle.readFile('utf8') : '';
    return { raw, holder: parseLockHolder(raw), ino: info.ino, ageMs: Date.now() - info.mtimeMs };
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  } finally {
    await handle?.close();
  }
}

/** Whether `now` is the very version `before` saw (same inode, same content). */
export function isSameVersion(before: ObservedFile, now: ObservedFile | undefined): boolean {
  return now !== undefined && now.ino === before.ino && now.raw === before.raw;
}

/**
 * Deletes temp files and takeover claims of the lock `file` left by processes that died in the
 * few milliseconds they exist: those at least `olderThanMs` old whose writer `isGone` says is gone.
 */
export async function sweepLockLitter(
  file: string,
  olderThanMs: number,
  isGone: (observed: ObservedFile) => Promise<boolean>,
): Promise<void> {
  const folder = path.dirname(file);
  const base = path.basename(file);
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    if (!isLockLitter(base, name)) continue;
    const litter = path.join(folder, name);
    const observed = await observeFile(litter).catch(() => undefined);
    if (observed !== undefined && observed.ageMs >= olderThanMs && (await isGone(observed)))
      await unlink(litter).catch(() => undefined);
  }
}
