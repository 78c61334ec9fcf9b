import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../logging';
import { writeMemoryBackup } from './memory-backup';
import type { OpenMemoryFile } from './memory-file';
import { runOutsideFileLocks } from '../locks';
import { withMemoryLock, type MemoryLockOptions } from './memory-lock';

/** How long a replaced memory file is kept open to catch a writer that had opened it before the rename. */
export const defaultLateWriteGraceMs = 300;

/** Options of the late-write watch. */
export interface LateWriteWatchOptions {
  readonly logger: Logger;
  readonly reportProblem: (message: string) => void;
  /** How long the old file is kept open (ms), or what to wait for instead (a test's gate). */
  readonly grace?: number | (() => Promise<void>);
}

/**
 * Catches writes that land in a memory file after Vigil replaced it. A program that opened the
 * file before Vigil's rename (`cat >>` between its open and its write) writes into the old,
 * now unlinked file, where nobody would ever see it. Vigil keeps the old file open for a grace
 * period after each replace and, if it grew or changed, saves its content as a backup and reports
 * the problem. The check runs outside the lock of the change that started it, and takes the memory
 * locks (Vigil's and Hermes's) itself, so it never writes while another writer holds them.
 */
export class LateWriteWatch {
  readonly #pending = new Set<Promise<void>>();
  readonly #options: LateWriteWatchOptions;

  constructor(options: LateWriteWatchOptions) {
    this.#options = options;
  }

  /** Takes ownership of the replaced file's handle: checks it once more after the grace period, then closes it. */
  watch(
    file: string,
    opened: OpenMemoryFile,
    lockOptions: Pick<MemoryLockOptions, 'hermesSidecar' | 'timeoutMs'> = {},
  ): void {
    const check = runOutsideFileLocks(() => this.#check(file, opened, lockOptions));
    this.#pending.add(check);
    void check.finally(() => this.#pending.delete(check));
  }

  /** Resolves when every pending check is done (before the process exits). */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  async #check(
    file: string,
    opened: OpenMemoryFile,
    lockOptions: Pick<MemoryLockOptions, 'hermesSidecar' | 'timeoutMs'>,
  ): Promise<void> {
    const { logger, reportProblem, grace = defaultLateWriteGraceMs } = this.#options;
    try {
      await (typeof grace === 'number' ? sleep(grace) : grace());
      const late = await opened.changedSinceRead();
      if (late === undefined) return;
      const backup = await withMemoryLock(file, () => writeMemoryBackup(file, late), {
        ...lockOptions,
        purpose: 'rescue a late write',
        logger,
      });
      logger.warn('a write landed in a replaced memory file', { file, backup: backup.path });
      reportProblem(
        `A program wrote to ${file} just after Vigil replaced it, so its write went to the old file; that version is kept in ${backup.path}.`,
      );
    } catch (error) {
      logger.error('could not check a replaced memory file for late writes', { file, error });
    } finally {
      await opened.close().catch(() => undefined);
    }
  }
}
