import type { MemoryCheckpoint } from '../../shared/contract/memory-contract';
import { type FileIdentity, isSameIdentity } from '../files';
import { readMemoryFile, statIdentity, type MemoryFileSnapshot } from './memory-file';
import { parseSnapshot, type MemoryFileState } from './memory-file-state';
import { refusesDrift, type GuardedChange, type GuardedChangeDependencies } from './guarded-change';

/** The checkpoint before a change; a failure is reported and logged, and the change goes ahead. */
async function takeCheckpoint(
  deps: GuardedChangeDependencies,
  state: MemoryFileState,
  change: GuardedChange,
): Promise<MemoryCheckpoint> {
  if (deps.checkpoints === undefined) return { status: 'not-configured' };
  try {
    const outcome = await deps.checkpoints.checkpoint(state.directory.path, {
      reason: `before ${change.purpose}`,
      attribution: change.attribution,
      paths: [state.file],
    });
    if (outcome.kind === 'created') return { status: 'created', id: outcome.checkpoint.id };
    return outcome.head === undefined ? { status: 'unchanged' } : { status: 'unchanged', id: outcome.head };
  } catch (error) {
    const message = `The checkpoint before ${change.purpose} in ${state.directory.path} failed: ${error instanceof Error ? error.message : String(error)}. The change went ahead.`;
    deps.logger.error('memory checkpoint failed', { dir: state.directory.path, error });
    deps.reportProblem(message);
    return { status: 'failed', message };
  }
}

/** A checkpoint taken before the lock, and the version of the file it holds. */
export interface EarlyCheckpoint {
  readonly identity: FileIdentity | undefined;
  readonly checkpoint: MemoryCheckpoint;
}

/**
 * Takes the checkpoint before a change without holding the memory lock, so the lock file is not
 * in it (restoring a checkpoint must never bring back a lock). A dry run decides first — only a
 * change that will write may touch checkpoint state (seed 002) — and the file's version is read
 * before and after, so the checkpoint is known to hold that version. Undefined when the dry run
 * refuses or changes nothing, or when the file changed meanwhile: the locked attempt then decides
 * for real and checkpoints under the lock if it must.
 */
export async function checkpointBeforeLock(
  state: MemoryFileState,
  change: GuardedChange,
  deps: GuardedChangeDependencies,
): Promise<EarlyCheckpoint | undefined> {
  if (deps.checkpoints === undefined) return undefined;
  let snapshot: MemoryFileSnapshot;
  try {
    snapshot = await readMemoryFile(state.file);
    const parsed = parseSnapshot(snapshot, state.limit);
    if (refusesDrift(parsed.drift, change.driftPolicy)) return undefined;
    if (!change.decide(parsed, snapshot).isChanged) return undefined;
  } catch {
    return undefined;
  }
  await deps.captures.idle(state.directory.path);
  const checkpoint = await takeCheckpoint(deps, state, change);
  const after = await statIdentity(state.file).catch(() => null);
  return after !== null && isSameIdentity(after, snapshot.identity)
    ? { identity: snapshot.identity, checkpoint }
    : undefined;
}

/**
 * The checkpoint before the change: the early one when it holds this very version; otherwise the
 * file changed since (rare): an external version found just now gets its own checkpoint first,
 * then the one before the change.
 */
export async function checkpointBeforeWrite(
  state: MemoryFileState,
  change: GuardedChange,
  deps: GuardedChangeDependencies,
  early: EarlyCheckpoint | undefined,
  snapshot: MemoryFileSnapshot,
): Promise<MemoryCheckpoint> {
  if (early !== undefined && isSameIdentity(early.identity, snapshot.identity)) return early.checkpoint;
  await deps.captures.idle(state.directory.path);
  return takeCheckpoint(deps, state, change);
}
