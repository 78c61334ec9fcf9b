import { lstat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { PreservedBackup } from '../../shared/contract/memory-contract';
import { readLiveFile, trackTempFile, vigilTempName } from '../files';
import type { Logger } from '../logging';
import { claimBackupName, writeMemoryBackup } from './memory-backup';
import { sha256Of, type MemoryFileSnapshot } from './memory-file';
import { parseEntries } from './memory-format';
import type { Disposer } from '../lib';

/** Where a problem no call result carries is logged and reported. */
export interface RaceReporter {
  readonly logger: Logger;
  readonly reportProblem: (message: string) => void;
}

/** The backup of a raced write: what it holds that the new version does not. */
function racedBackup(backup: string, raced: Buffer, written: readonly string[]): PreservedBackup {
  const kept = new Set(written);
  return {
    reason: 'raced-write',
    backup,
    entries: parseEntries(raced.toString('utf8')).filter((entry) => !kept.has(entry)),
  };
}

function reportRace(reporter: RaceReporter, file: string, backup: string): void {
  reporter.logger.warn('memory write raced an external writer', { file, backup });
  reporter.reportProblem(
    `Another program wrote to ${file} while Vigil was replacing it; its version is kept in ${backup}.`,
  );
}

/** Saves what a racing writer put into the old file between Vigil's read and its rename. */
export async function rescueRacedWrite(
  reporter: RaceReporter,
  file: string,
  raced: Buffer,
  written: readonly string[],
): Promise<PreservedBackup> {
  const backup = await writeMemoryBackup(file, raced);
  reportRace(reporter, file, backup.path);
  return racedBackup(backup.path, raced, written);
}

/**
 * The hidden hard link a write keeps of the file it replaces (the atomic writer's
 * `keepReplacedAt`), so that a version another program renamed into place after Vigil's last check
 * is not lost with the rename. Node has no renameat2(RENAME_EXCHANGE), so the check and the rename
 * stay two steps; with the link taken between them, what is lost shrinks to a replacement landing
 * between two adjacent system calls (link, rename), and anything before that is caught here.
 */
export class ReplacedFileKeeper {
  readonly path: string;
  readonly #untrack: Disposer<void>;

  constructor(file: string) {
    this.path = path.join(path.dirname(file), vigilTempName(path.basename(file)));
    this.#untrack = trackTempFile(this.path);
  }

  /**
   * After the write: when the file it replaced is not the version Vigil read (`read`: its identity
   * and sha256, both absent when the file was), that file becomes a `.bak` (the link itself,
   * renamed by a new link, so nothing is copied or overwritten) and is reported; undefined
   * otherwise. The very inode Vigil read (held open, so its number is not reused) is not read
   * again: what was written into it since is the open file's to find (`changedSinceRead`).
   */
  async rescue(
    reporter: RaceReporter,
    file: string,
    read: Pick<MemoryFileSnapshot, 'identity' | 'sha256'>,
    written: readonly string[],
  ): Promise<PreservedBackup | undefined> {
    const kept = await lstat(this.path, { bigint: true }).catch(() => undefined);
    if (kept === undefined || String(kept.ino) === read.identity?.ino) return undefined;
    const opened = await readLiveFile(this.path).catch(() => undefined);
    const replaced = opened?.kind === 'read' ? opened.content : undefined;
    if (replaced === undefined || sha256Of(replaced) === read.sha256) return undefined;
    const backup = await claimBackupName(this.path, file);
    reportRace(reporter, file, backup);
    return racedBackup(backup, replaced, written);
  }

  /** Removes the link (always, after the write or its failure). */
  async dispose(): Promise<void> {
    await unlink(this.path).catch(() => undefined);
    this.#untrack();
  }
}
