import { appendFile, mkdir, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from '../files';
import { maskSecretValues } from '../../shared/secrets/mask-secret-values';
import { writeFileDurably } from './durable-file';
import { isObjectId } from './git-objects';
import { timelineRef, vigilIdentity } from './store-layout';

const zeroId = '0'.repeat(40);

/** Entries kept per reflog when it is rewritten. */
const maxEntries = 500;

/** One line of a reflog: the ref moved from `old` to `next`. */
export interface RefLogEntry {
  readonly old: string | undefined;
  readonly next: string;
  readonly line: string;
}

/**
 * The reflog of each timeline (`logs/refs/vigil/<dirhash>`, git's own format, so `git reflog`
 * reads it): where each ref pointed before. It lets a repair find the previous head when the
 * newest commit did not survive a power cut.
 */
export class RefLog {
  constructor(private readonly gitdir: string) {}

  #file(dirhash: string): string {
    return path.join(this.gitdir, 'logs', timelineRef(dirhash));
  }

  /** Records a move of a timeline's ref (before the ref file itself changes); secrets in the message are masked, as in the session logs. */
  async append(dirhash: string, old: string | undefined, next: string, message: string): Promise<void> {
    const file = this.#file(dirhash);
    const shown = maskSecretValues(message)
      .replace(/[\r\n\t]+/g, ' ')
      .slice(0, 200);
    const line = `${old ?? zeroId} ${next} ${vigilIdentity} ${Math.floor(Date.now() / 1000)} +0000\t${shown}\n`;
    // The reflog's folder is made only when it is missing: a mkdir of one already there costs two trips per move.
    await appendFile(file, line).catch(async (error: unknown) => {
      if (errnoCode(error) !== 'ENOENT') throw error;
      await mkdir(path.dirname(file), { recursive: true });
      await appendFile(file, line);
    });
  }

  /** A timeline's reflog, oldest first (empty when there is none). */
  async read(dirhash: string): Promise<RefLogEntry[]> {
    const text = await readFile(this.#file(dirhash), 'utf8').catch(() => '');
    const entries: RefLogEntry[] = [];
    for (const line of text.split('\n')) {
      const [old = '', next = ''] = line.split(' ', 2);
      if (!isObjectId(old) || !isObjectId(next)) continue;
      entries.push({ old: old === zeroId ? undefined : old, next, line });
    }
    return entries;
  }

  /**
   * Keeps only entries whose objects still exist (git fsck reports the others as errors): an entry
   * whose new value is gone is dropped; an old value that is gone becomes the null id.
   */
  async retain(dirhash: string, exists: (oid: string) => boolean | Promise<boolean>): Promise<void> {
    const entries = await this.read(dirhash);
    if (entries.length === 0) return;
    const kept: string[] = [];
    for (const entry of entries) {
      if (!(await exists(entry.next))) continue;
      const oldIsKept = entry.old !== undefined && (await exists(entry.old));
      kept.push(oldIsKept ? entry.line : `${zeroId}${entry.line.slice(40)}`);
    }
    const trimmed = kept.slice(-maxEntries);
    if (trimmed.length === 0) await unlink(this.#file(dirhash)).catch(() => undefined);
    else await writeFileDurably(this.#file(dirhash), `${trimmed.join('\n')}\n`);
  }
}
