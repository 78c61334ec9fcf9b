import { constants } from 'node:fs';
import { copyFile, link, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import {
  errnoCode,
  fileSystemError,
  noHardLinkCodes,
  readLiveFile,
  syncDirectory,
  trackTempFile,
  vigilTempName,
  writeTempFile,
} from '../files';
import { sha256Of } from './memory-file';

/** A backup written (or found) for a memory file. */
export interface MemoryBackup {
  readonly path: string;
  /** An earlier backup already held exactly these bytes, so no new file was written. */
  readonly isReused: boolean;
}

/** `2026-05-23T09-51-00-123Z`: sortable, and valid in file names on every platform. */
function timestamp(now: Date): string {
  return now.toISOString().replace(/:/g, '-').replace('.', '-');
}

/** The backups of a file, `<name>.bak.*`, newest name first. */
export async function listMemoryBackups(file: string): Promise<string[]> {
  const directory = path.dirname(file);
  const prefix = `${path.basename(file)}.bak.`;
  const names = await readdir(directory).catch(() => [] as string[]);
  return names
    .filter((name) => name.startsWith(prefix))
    .sort()
    .reverse()
    .map((name) => path.join(directory, name));
}

async function findIdentical(file: string, bytes: Uint8Array): Promise<string | undefined> {
  const wanted = sha256Of(bytes);
  for (const candidate of await listMemoryBackups(file)) {
    // Only a regular file of the same size is read: a symlink (not followed) or a FIFO (never waited on) is no backup.
    const read = await readLiveFile(candidate, { maxBytes: bytes.length }).catch(() => undefined);
    if (read?.kind === 'read' && read.content.length === bytes.length && sha256Of(read.content) === wanted)
      return candidate;
  }
  return undefined;
}

/**
 * Gives a complete file (`source`, beside the memory file) a backup name of its own: the first
 * free one of `<file>.bak.<timestamp>`, then `-2`, `-3`… A name is claimed by `link()` (or an
 * exclusive copy), which fails with EEXIST when it is taken, so two backups made at the same
 * moment — in this process or another — can never land on one name, and nothing is overwritten
 * or followed through a symlink. `source` stays where it is.
 */
export async function claimBackupName(source: string, file: string, now = new Date()): Promise<string> {
  const base = `${file}.bak.${timestamp(now)}`;
  let canLink = true;
  for (let attempt = 1; attempt <= 10_000; attempt += 1) {
    const candidate = attempt === 1 ? base : `${base}-${attempt}`;
    try {
      if (canLink) await link(source, candidate);
      else await copyFile(source, candidate, constants.COPYFILE_EXCL);
      await syncDirectory(path.dirname(file));
      return candidate;
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'EEXIST') continue;
      if (canLink && noHardLinkCodes.has(code ?? '')) {
        canLink = false;
        attempt -= 1;
        continue;
      }
      throw fileSystemError(error, 'write', candidate);
    }
  }
  throw fileSystemError(new Error('every backup name is taken'), 'write', base);
}

/**
 * Keeps a copy of a memory file's bytes in `<file>.bak.<timestamp>` (mode 0600), never
 * overwriting anything (see `claimBackupName`): the bytes go to a fsynced temp file first, so a
 * backup is complete the moment it has its name. When an earlier backup holds exactly the same
 * bytes it is returned instead, so an agent retrying a refused call does not pile up identical copies.
 */
export async function writeMemoryBackup(file: string, bytes: Uint8Array, now = new Date()): Promise<MemoryBackup> {
  const existing = await findIdentical(file, bytes);
  if (existing !== undefined) return { path: existing, isReused: true };
  const temp = path.join(path.dirname(file), vigilTempName(path.basename(file)));
  const untrack = trackTempFile(temp);
  try {
    await writeTempFile(temp, bytes, { mode: 0o600 });
    return { path: await claimBackupName(temp, file, now), isReused: false };
  } finally {
    await unlink(temp).catch(() => undefined);
    untrack();
  }
}
