import path from 'node:path';
import type { MemoryChange } from '../../shared/contract/memory-contract';
import { type Attribution, type CheckpointOutcome } from '../checkpoints';
import { readLiveFile } from '../files';
import { hashObject } from '../git-store';
import { actorKey, actorOfAttribution } from '../../shared/contract/actor-model';
import { runOutsideFileLocks } from '../locks';
import type { Logger } from '../logging';
import { writeMemoryBackup } from './memory-backup';
import type { MemoryCheckpointer } from './memory-checkpointer';
import { sha256Of, type MemoryFileSnapshot } from './memory-file';
import { parseEntries } from './memory-format';
import { findInvalidUtf8 } from './utf8';

/** A version of a memory file that was reported (in a change, or as a baseline) and so must stay restorable. */
export interface ReportedVersion {
  readonly file: string;
  readonly bytes: Buffer;
}

interface DirectoryCaptures {
  running: Promise<void> | undefined;
  /** Reasons waiting for the next run (a run captures whatever is on disk when it starts). */
  pending: Set<string>;
  /** Who caused each waiting reason, by actor key: one actor is named on the checkpoint, several make it Vigil's. */
  actors: Map<string, Attribution>;
  /** Reported versions the next run must account for, by file and sha256. */
  versions: Map<string, ReportedVersion>;
}

/**
 * Checkpoints memory directories after changes, in the background. A checkpoint captures what is
 * on disk when it runs, so requests that arrive while one runs fold into a single next run: a
 * burst of edits costs at most two checkpoints. A version that was reported but replaced before
 * its checkpoint ran is not on the timeline; it is kept in a `.bak` beside the file instead (and
 * the problem reported), so every version a change reported can be restored.
 */
export class MemoryCaptureQueue {
  readonly #directories = new Map<string, DirectoryCaptures>();

  constructor(
    readonly checkpoints: MemoryCheckpointer | undefined,
    readonly logger: Logger,
    readonly reportProblem: (message: string) => void,
  ) {}

  /**
   * Asks for a checkpoint of `dir` with `reason` (`external edit of MEMORY.md`) that holds
   * `versions`, attributed to whoever made the change (`attribution`: a session, the app, the
   * CLI, outside Vigil; default Vigil itself).
   */
  schedule(
    dir: string,
    reason: string,
    versions: readonly ReportedVersion[] = [],
    attribution: Attribution = { actor: 'vigil' },
  ): void {
    if (this.checkpoints === undefined) return;
    const captures = this.#directories.get(dir) ?? {
      running: undefined,
      pending: new Set<string>(),
      actors: new Map<string, Attribution>(),
      versions: new Map<string, ReportedVersion>(),
    };
    this.#directories.set(dir, captures);
    captures.pending.add(reason);
    captures.actors.set(actorKey(actorOfAttribution(attribution)), attribution);
    for (const version of versions) captures.versions.set(`${version.file}\0${sha256Of(version.bytes)}`, version);
    // Started outside the caller's memory lock: the capture outlives it.
    captures.running ??= runOutsideFileLocks(() => this.#drain(dir, captures));
  }

  /** Resolves when no capture of `dir` is running or waiting. */
  async idle(dir: string): Promise<void> {
    for (
      let captures = this.#directories.get(dir);
      captures?.running !== undefined;
      captures = this.#directories.get(dir)
    ) {
      await captures.running;
    }
  }

  /** Resolves when every directory is idle. */
  async idleAll(): Promise<void> {
    await Promise.all([...this.#directories.keys()].map((dir) => this.idle(dir)));
  }

  async #drain(dir: string, captures: DirectoryCaptures): Promise<void> {
    const checkpoints = this.checkpoints;
    while (checkpoints !== undefined && captures.pending.size > 0) {
      const versions = [...captures.versions.values()];
      // A file that holds none of the versions reported for it was changed again, not yet reported (an outside edit the watcher has not seen yet): the capture says so.
      const unreported = await unreportedFiles(versions);
      const reason = [
        ...captures.pending,
        ...unreported.map((file) => `a later change of ${path.basename(file)} not yet reported`),
      ].join('; ');
      // Changes by several actors folded into one capture: Vigil took it, for all of them (its subject names each change).
      const actors = [...captures.actors.values()];
      const attribution: Attribution =
        actors.length === 1 && actors[0] !== undefined && unreported.length === 0 ? actors[0] : { actor: 'vigil' };
      captures.pending.clear();
      captures.actors.clear();
      captures.versions.clear();
      let missing = versions;
      try {
        const files = [...new Set(versions.map((version) => version.file))];
        const outcome = await checkpoints.checkpoint(dir, {
          reason,
          attribution,
          ...(files.length > 0 ? { paths: files } : {}),
        });
        missing = await this.#notHeld(dir, outcome, versions);
      } catch (error) {
        const message = `Could not checkpoint ${dir} after a change of its memory: ${error instanceof Error ? error.message : String(error)}`;
        this.logger.error('memory capture failed', { dir, reason, error });
        this.reportProblem(message);
      }
      for (const version of missing) await this.#keepAside(version);
    }
    captures.running = undefined;
    this.#directories.delete(dir);
  }

  /**
   * The versions whose text would be lost: not held by the checkpoint that `outcome` names, with an
   * entry the checkpoint's version of the file does not have. A version a later writer replaced
   * with one holding all of its entries (two writers adding at once) loses nothing.
   */
  async #notHeld(
    dir: string,
    outcome: CheckpointOutcome,
    versions: readonly ReportedVersion[],
  ): Promise<ReportedVersion[]> {
    if (versions.length === 0) return [];
    const checkpoints = this.checkpoints;
    if (checkpoints === undefined) return [...versions];
    const tree =
      outcome.kind === 'created'
        ? outcome.checkpoint.tree
        : outcome.head === undefined
          ? undefined
          : (await checkpoints.resolve(dir, outcome.head)).tree;
    const entries = tree === undefined ? [] : await checkpoints.readTree(tree);
    const stored = new Map(entries.map((entry) => [entry.name, entry.oid]));
    const missed = versions.filter(
      (version) =>
        path.dirname(version.file) !== dir ||
        stored.get(path.basename(version.file)) !== hashObject('blob', version.bytes),
    );
    const lost: ReportedVersion[] = [];
    for (const version of missed) {
      const oid = path.dirname(version.file) === dir ? stored.get(path.basename(version.file)) : undefined;
      const held = oid === undefined ? undefined : Buffer.from(await checkpoints.readBlob(oid));
      if (held === undefined || !holdsEveryEntry(held, version.bytes)) lost.push(version);
      else
        this.logger.info(
          'a memory version replaced before its checkpoint lost nothing: a later version holds all of it',
          { file: version.file },
        );
    }
    return lost;
  }

  /** Keeps a reported version that no checkpoint holds in a `.bak` beside its file. */
  async #keepAside(version: ReportedVersion): Promise<void> {
    try {
      const backup = await writeMemoryBackup(version.file, version.bytes);
      this.logger.warn('a reported memory version was replaced before its checkpoint', {
        file: version.file,
        backup: backup.path,
      });
      if (!backup.isReused)
        this.reportProblem(
          `A version of ${version.file} was replaced before Vigil could checkpoint it; it is kept in ${backup.path}.`,
        );
    } catch (error) {
      this.logger.error('could not keep a reported memory version', { file: version.file, error });
      this.reportProblem(
        `A version of ${version.file} was replaced before Vigil could checkpoint it, and keeping it in a backup failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

/** The files whose bytes on disk now are none of the versions reported for them, or not a regular file (a missing or unreadable file is left to the checkpoint). */
async function unreportedFiles(versions: readonly ReportedVersion[]): Promise<string[]> {
  const reported = new Map<string, Set<string>>();
  for (const version of versions)
    reported.set(version.file, (reported.get(version.file) ?? new Set()).add(sha256Of(version.bytes)));
  const found: string[] = [];
  for (const [file, digests] of reported) {
    // Never waiting on a FIFO an agent put there: that (a folder, a device) is a later change too.
    const read = await readLiveFile(file, { followsSymlink: true }).catch(() => undefined);
    if (read?.kind === 'special' || (read?.kind === 'read' && !digests.has(sha256Of(read.content)))) found.push(file);
  }
  return found;
}

/** Whether `later` holds every entry of `earlier` (both read as Hermes reads them; bytes that are not UTF-8 must match exactly). */
function holdsEveryEntry(later: Buffer, earlier: Buffer): boolean {
  if (findInvalidUtf8(later) !== -1 || findInvalidUtf8(earlier) !== -1) return later.equals(earlier);
  const kept = new Set(parseEntries(later.toString('utf8')));
  return parseEntries(earlier.toString('utf8')).every((entry) => kept.has(entry));
}

/** The commit subject of the capture of a change another writer made. */
function captureReason(change: MemoryChange): string {
  const name = path.basename(change.file);
  if (change.source === 'external') return `external edit of ${name}`;
  return change.isRestore === true ? `restore of ${name}` : `change of ${name} by another Vigil process`;
}

/**
 * Puts a change this service did not make itself on the timeline (an external edit, another Vigil
 * process's write, a restore): every such version is captured, whatever its label, with its bytes
 * so that the capture can make sure it holds them.
 */
export function captureChange(queue: MemoryCaptureQueue, change: MemoryChange, snapshot: MemoryFileSnapshot): void {
  queue.schedule(change.dir, captureReason(change), reportedVersions(change.file, snapshot), {
    actor: change.source === 'external' ? 'outside' : 'vigil',
  });
}

/** The version of a snapshot that a capture must hold: none when the file is missing, or is a symlink (the tree stores the link). */
export function reportedVersions(
  file: string,
  snapshot: Pick<MemoryFileSnapshot, 'exists' | 'path' | 'bytes'>,
): ReportedVersion[] {
  return snapshot.exists && snapshot.path === file ? [{ file, bytes: snapshot.bytes }] : [];
}
