import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../logging/logger';
import { writeMemoryBackup } from './memory-backup';
import type { OpenMemoryFile } from './memory-file';
import { withMemoryLock } from './memory-lock';

/** How long a replaced memory file is kept open to catch a writer that had opened it before the rename. */
export const defaultLateWriteGraceMs = 300;

/**
 * Catches writes that land in a memory file after Vigil replaced it. A program that opened the
 * file before Vigil's rename (`cat >>` between its open and its write) writes into the old,
 * now unlinked file, where nobody would ever see it. Vigil keeps the old file open for a grace
 * period after each replace and, if it grew or changed, saves its content as a backup (under the
 * memory lock, so backup names stay unique across processes) and reports the problem.
 */
export class LateWriteWatch {
  readonly #pending = new Set<Promise<void>>();

  constructor(
    readonly logger: Logger,
    readonly reportProblem: (message: string) => void,
    readonly graceMs = defaultLateWriteGraceMs,
  ) {}

  /** Takes ownership of the replaced file's handle: checks it once more after the grace period, then closes it. */
  watch(file: string, opened: OpenMemoryFile): void {
    const check = (async () => {
      try {
        await sleep(this.graceMs);
        const late = await opened.changedSinceRead();
        if (late === undefined) return;
        const backup = await withMemoryLock(file, () => writeMemoryBackup(file, late), { purpose: 'rescue a late write' });
        this.logger.warn('a write landed in a replaced memory file', { file, backup: backup.path });
        this.reportProblem(`A program wrote to ${file} just after Vigil replaced it, so its write went to the old file; that version is kept in ${backup.path}.`);
      } catch (error) {
        this.logger.error('could not check a replaced memory file for late writes', { file, error });
      } finally {
        await opened.close().catch(() => undefined);
      }
    })();
    this.#pending.add(check);
    void check.finally(() => this.#pending.delete(check));
  }

  /** Resolves when every pending check is done (before the process exits). */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }
}
