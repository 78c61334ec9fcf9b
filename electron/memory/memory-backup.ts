import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { isAppError } from '../../shared/errors';
import { writeFileAtomic } from '../files/atomic-write';
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
    const size = await stat(candidate).then((stats) => (stats.isFile() ? stats.size : -1), () => -1);
    if (size !== bytes.length) continue;
    const content = await readFile(candidate).catch(() => undefined);
    if (content !== undefined && sha256Of(content) === wanted) return candidate;
  }
  return undefined;
}

/**
 * Keeps a copy of a memory file's bytes in `<file>.bak.<timestamp>` (mode 0600), through the
 * atomic writer, never overwriting anything: a name that is taken (two backups in the same
 * millisecond) gets a `-2`, `-3`… suffix. When an earlier backup holds exactly the same bytes it
 * is returned instead, so an agent retrying a refused call does not pile up identical copies.
 */
export async function writeMemoryBackup(file: string, bytes: Uint8Array, now = new Date()): Promise<MemoryBackup> {
  const existing = await findIdentical(file, bytes);
  if (existing !== undefined) return { path: existing, isReused: true };
  const base = `${file}.bak.${timestamp(now)}`;
  for (let attempt = 1; ; attempt += 1) {
    const candidate = attempt === 1 ? base : `${base}-${attempt}`;
    try {
      await writeFileAtomic(candidate, bytes, { mode: 0o600, ifUnchanged: { identity: undefined } });
      return { path: candidate, isReused: false };
    } catch (error) {
      // `conflict`: the name was taken (by a backup in the same millisecond); try the next one.
      if (!isAppError(error) || error.code !== 'conflict' || attempt >= 1000) throw error;
    }
  }
}
