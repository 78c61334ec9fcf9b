import type { PreservedBackup } from '../../shared/contract/memory-contract';
import { actorOfAttribution } from '../../shared/contract/actor-model';
import { AppError, isAppError } from '../../shared/errors';
import { writeFileAtomic } from '../files';
import { reportedVersions } from './memory-capture';
import { sha256Of, type MemoryFileSnapshot, type OpenMemoryFile } from './memory-file';
import type { MemoryFileState } from './memory-file-state';
import { ReplacedFileKeeper, rescueRacedWrite } from './memory-raced-writes';
import type { GuardedChange, GuardedChangeDependencies } from './guarded-change';

/** How often a write is retried when the file changed between the read and the rename. */
export const maxAttempts = 5;

/** The snapshot of the version just written, as the state records it. */
function writtenSnapshot(snapshot: MemoryFileSnapshot, text: string): MemoryFileSnapshot {
  const bytes = Buffer.from(text, 'utf8');
  return { ...snapshot, exists: true, bytes, sha256: sha256Of(bytes), text, invalidUtf8At: -1, identity: undefined };
}

/** Writes `text` only if the file is still the version read; false when it changed (try again from a fresh read). */
async function writeIfUnchanged(
  state: MemoryFileState,
  deps: GuardedChangeDependencies,
  snapshot: MemoryFileSnapshot,
  text: string,
  keeper: ReplacedFileKeeper,
  isLastAttempt: boolean,
): Promise<boolean> {
  try {
    await writeFileAtomic(snapshot.path, text, {
      ifUnchanged: { identity: snapshot.identity },
      keepReplacedAt: keeper.path,
      afterCheck: deps.afterWriteCheck,
      ...(snapshot.exists ? {} : { mode: 0o600 }),
    });
    return true;
  } catch (error) {
    // `conflict` from the writer: the file is no longer the version read. Start over from a fresh read.
    if (isAppError(error) && error.code === 'conflict' && !isLastAttempt) return false;
    if (isAppError(error) && error.code === 'conflict') {
      throw new AppError(
        'conflict',
        `${state.file} kept changing while Vigil tried to write it (${maxAttempts} attempts, each from a fresh read); nothing was written. Retry when the other writer is done.`,
        {
          file: state.file,
          reason: 'kept-changing',
        },
      );
    }
    throw error;
  }
}

/**
 * Writes the new version and rescues what raced it (a version renamed into place after the
 * writer's check, or a write into the file read); undefined when the file changed before the write.
 */
export async function writeAndRescue(
  state: MemoryFileState,
  deps: GuardedChangeDependencies,
  opened: OpenMemoryFile,
  entries: readonly string[],
  text: string,
  isLastAttempt: boolean,
): Promise<PreservedBackup[] | undefined> {
  const { snapshot } = opened;
  const keeper = new ReplacedFileKeeper(snapshot.path);
  try {
    if (!(await writeIfUnchanged(state, deps, snapshot, text, keeper, isLastAttempt))) return undefined;
    const rescued: PreservedBackup[] = [];
    // A version another program renamed into place after the writer's check, kept by its link.
    const replaced = await keeper.rescue(deps, state.file, snapshot, entries);
    if (replaced !== undefined) rescued.push(replaced);
    // A write into the very file read (still open), before or after the rename.
    const raced = await opened.changedSinceRead();
    if (raced !== undefined) rescued.push(await rescueRacedWrite(deps, state.file, raced, entries));
    return rescued;
  } finally {
    await keeper.dispose();
  }
}

/** Tells the engine and the state about the version written, and puts it on the timeline in the background. */
export function noteWrittenVersion(
  state: MemoryFileState,
  change: GuardedChange,
  deps: GuardedChangeDependencies,
  snapshot: MemoryFileSnapshot,
  text: string,
): void {
  deps.checkpoints?.noteWritten([snapshot.path], actorOfAttribution(change.attribution ?? {}));
  state.observe(writtenSnapshot(snapshot, text), { source: 'vigil', notifications: 0 });
  // The new version goes on the timeline too (in the background), so a later edit outside Vigil cannot erase it unseen.
  deps.captures.schedule(
    state.directory.path,
    `after ${change.purpose}`,
    reportedVersions(state.file, { exists: true, path: snapshot.path, bytes: Buffer.from(text, 'utf8') }),
    change.attribution,
  );
}
