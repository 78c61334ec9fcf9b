import { randomUUID } from 'node:crypto';
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { lazySchema } from '../../shared/lazy-schema';
import { AppError } from '../../shared/errors';
import { withoutCredential } from '../../shared/ui-credential';
import { isProcessGone } from '../lib';

/** What `serve.json` records about a running server (mode 0600: it holds the CLI's credential, which cannot approve; `url` is the address without any credential). */
export const serveInfoSchema = lazySchema(() =>
  z.object({
    pid: z.number().int(),
    port: z.number().int().nullable(),
    token: z.string(),
    url: z.string().nullable(),
    version: z.string(),
    startedAt: z.string(),
    /** A background core (`vigil core run`, started by a command): the app and `vigil serve` take its place. */
    background: z.boolean().optional(),
  }),
);

/** The contents of `serve.json`. */
export type ServeInfo = z.infer<typeof serveInfoSchema>;

/** Reads `serve.json`; undefined when it is missing or unreadable. */
export async function readServeInfo(file: string): Promise<ServeInfo | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    return serveInfoSchema.parse(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** Reads `serve.json` and returns it only when its server process is alive. */
export async function readLiveServeInfo(file: string): Promise<ServeInfo | undefined> {
  const info = await readServeInfo(file);
  return info !== undefined && !(await isProcessGone(info.pid)) ? info : undefined;
}

async function writeTemp(file: string, info: ServeInfo): Promise<string> {
  const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  await writeFile(temp, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return temp;
}

/**
 * Claims `serve.json` for this process: exactly one server runs per VIGIL_HOME. The file is
 * created whole (a complete temp file hard-linked into place, which fails if one exists), so no
 * reader ever sees it half-written. A file whose pid is dead is taken over; a live one is an error
 * that names its pid, unless `takeOver` stops its owner (a background core giving way).
 */
export async function claimServeInfo(
  file: string,
  info: ServeInfo,
  takeOver?: (owner: ServeInfo) => Promise<boolean>,
): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const temp = await writeTemp(file, info);
    try {
      await link(temp, file);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      await unlink(temp).catch(() => undefined);
    }
    const existing = await readServeInfo(file);
    // A zombie (exited, not yet reaped: an orphaned core in a container) holds nothing: it is stale.
    if (existing !== undefined && existing.pid !== process.pid && !(await isProcessGone(existing.pid))) {
      // A background core gives way to the app and `vigil serve`: stopped, it releases serve.json.
      if (takeOver !== undefined && (await takeOver(existing))) continue;
      throw new AppError(
        'busy',
        `Another Vigil (the desktop app or "vigil serve", pid ${existing.pid}) is already running on this data folder` +
          `${existing.url === null ? '' : ` at ${withoutCredential(existing.url)}`}. ` +
          'Stop it first, or run this one with a different VIGIL_HOME.',
        { pid: existing.pid, file },
      );
    }
    // Stale (dead pid) or unreadable: move it aside, then check that what we moved is what we judged.
    const aside = `${file}.stale-${process.pid}-${randomUUID()}`;
    try {
      await rename(file, aside);
    } catch {
      continue;
    }
    const moved = await readServeInfo(aside);
    if (
      moved !== undefined &&
      existing !== undefined &&
      moved.token !== existing.token &&
      !(await isProcessGone(moved.pid))
    ) {
      await link(aside, file).catch(() => undefined);
    }
    await unlink(aside).catch(() => undefined);
  }
  throw new AppError('busy', `Could not claim ${file}: other processes keep replacing it.`, { file });
}

/** Replaces this process's `serve.json` with new contents (atomically, mode 0600). */
export async function updateServeInfo(file: string, info: ServeInfo): Promise<void> {
  const temp = await writeTemp(file, info);
  await rename(temp, file);
}

/** Removes `serve.json` if it is still this process's. */
export async function releaseServeInfo(file: string, token: string): Promise<void> {
  const existing = await readServeInfo(file);
  if (existing?.token === token) await unlink(file).catch(() => undefined);
}
