import type {
  AppliedOperation,
  DriftReport,
  MemoryCheckpoint,
  MemoryMutationResult,
  PreservedBackup,
} from '../../shared/contract/memory-contract';
import { actorOfAttribution } from '../../shared/contract/actor-model';
import { AppError, isAppError } from '../../shared/errors';
import type { Attribution } from '../checkpoints';
import { writeFileAtomic } from '../files/atomic-write';
import { isSameIdentity, type FileIdentity } from '../files/file-identity';
import type { Logger } from '../logging/logger';
import { captureChange, reportedVersions, type MemoryCaptureQueue } from './memory-capture';
import type { MemoryCheckpointer } from './memory-checkpointer';
import type { LateWriteWatch } from './memory-late-writes';
import {
  openMemoryFile,
  readMemoryFile,
  sha256Of,
  statIdentity,
  type MemoryFileSnapshot,
  type OpenMemoryFile,
} from './memory-file';
import { parseSnapshot, type MemoryFileState, type ParsedSnapshot } from './memory-file-state';
import { serializeEntries, usageOf } from './memory-format';
import { isBadInput } from './memory-drift';
import { hermesSidecarMode, withMemoryLock } from './memory-lock';
import { writeMemoryBackup } from './memory-backup';
import { ReplacedFileKeeper, rescueRacedWrite } from './memory-raced-writes';
import { driftError } from './memory-refusal';
import { entryDigest, readWriteRecord, writeWriteRecord, type MemoryWriteRecord } from './memory-write-record';

/** What a change decided, given the file as it is now. */
export interface ChangeDecision {
  readonly entries: readonly string[];
  readonly applied: readonly AppliedOperation[];
  readonly isChanged: boolean;
  /** Entries the change takes out of the file. */
  readonly discarded: readonly string[];
  /** One sentence for the result (`Entry added.`). */
  readonly message: string;
}

/** One guarded change of a memory file: a mutation or an adoption. */
export interface GuardedChange {
  /** `memory: add`; the checkpoint subject is `before <purpose>`. */
  readonly purpose: string;
  readonly attribution?: Attribution;
  /**
   * How the change treats a drifted file: `refuse` any drift (replace, remove, a batch);
   * `append` refuses only bytes Vigil cannot write, as Hermes's add skips its drift rule (an
   * append takes nothing out); `rewrite` (an adoption) refuses only a file over the size cap.
   */
  readonly driftPolicy: DriftPolicy;
  /** Keep a backup of the whole file before writing (an adoption keeps the free-form original). */
  readonly backupWhole: boolean;
  /** Decides the new entries from the current file; throws an AppError to refuse. */
  decide(current: ParsedSnapshot, snapshot: MemoryFileSnapshot): ChangeDecision;
}

/** How a change treats a drifted file (see `GuardedChange.driftPolicy`). */
export type DriftPolicy = 'refuse' | 'append' | 'rewrite';

/** Whether a change with `policy` must refuse a file with this drift report. */
function refusesDrift(drift: DriftReport, policy: DriftPolicy): boolean {
  if (!drift.isDrifted) return false;
  switch (policy) {
    case 'refuse':
      return true;
    case 'append':
      return isBadInput(drift);
    case 'rewrite':
      return drift.reasons.some((reason) => reason.kind === 'too-large');
  }
}

/** What the guarded change runner needs from the service. */
export interface GuardedChangeDependencies {
  readonly logger: Logger;
  /** This service's id in write records. */
  readonly writer: string;
  readonly checkpoints: MemoryCheckpointer | undefined;
  readonly captures: MemoryCaptureQueue;
  readonly lateWrites: LateWriteWatch;
  readonly reportProblem: (message: string) => void;
  readonly lockTimeoutMs?: number;
  /** Runs between the writer's last check and its rename (tests stand in for another program there). */
  readonly afterWriteCheck?: () => Promise<void>;
}

/** How often a write is retried when the file changed between the read and the rename. */
const maxAttempts = 5;

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

/** The discarded entries whose text Vigil did not author (all of them when the record does not know the file). */
function writtenElsewhere(discarded: readonly string[], record: MemoryWriteRecord | undefined): string[] {
  const authored = new Set(record?.entries ?? []);
  return discarded.filter((entry) => !authored.has(entryDigest(entry)));
}

/**
 * The entries of the new version whose text Vigil authored: those the record already vouched for,
 * plus those this change adds or rewrites. An entry that came from outside (or that outside text
 * was appended to) is carried along without ever becoming Vigil's, so taking it out later still
 * keeps a backup.
 */
function authoredEntries(
  entries: readonly string[],
  decision: ChangeDecision,
  record: MemoryWriteRecord | undefined,
): string[] {
  const vouched = new Set(record?.entries ?? []);
  const written = new Set(
    decision.applied
      .filter((item) => item.outcome === 'added' || item.outcome === 'replaced')
      .map((item) => item.entry),
  );
  return entries.filter((entry) => written.has(entry) || vouched.has(entryDigest(entry)));
}

function writtenSnapshot(snapshot: MemoryFileSnapshot, text: string): MemoryFileSnapshot {
  const bytes = Buffer.from(text, 'utf8');
  return { ...snapshot, exists: true, bytes, sha256: sha256Of(bytes), text, invalidUtf8At: -1, identity: undefined };
}

/** One sentence about a backup, appended to the result's message. */
function describePreserved(item: PreservedBackup): string {
  switch (item.reason) {
    case 'external-text':
      return ` Text written outside Vigil was taken out of the file; it is kept in ${item.backup}.`;
    case 'raced-write':
      return ` Another program wrote the file at the same moment; its version is kept in ${item.backup}.`;
    case 'adopted-original':
      return ` The original file is kept in ${item.backup}.`;
  }
}

/** A checkpoint taken before the lock, and the version of the file it holds. */
interface EarlyCheckpoint {
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
async function checkpointBeforeLock(
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

/** Refuses a drifted file, leaving it untouched with a backup (unless it is over the size cap). */
async function refuseDrifted(
  state: MemoryFileState,
  snapshot: MemoryFileSnapshot,
  parsed: ParsedSnapshot,
): Promise<never> {
  // A file over the size cap is never copied: nothing writes it, so nothing can be lost.
  const isTooLarge = parsed.drift.reasons.some((reason) => reason.kind === 'too-large');
  const backup = isTooLarge ? undefined : await writeMemoryBackup(state.file, snapshot.bytes);
  throw driftError({
    file: state.file,
    target: state.target,
    limit: state.limit,
    drift: parsed.drift,
    usage: parsed.usage,
    backup: backup?.path,
    isBackupReused: backup?.isReused ?? false,
  });
}

/**
 * The checkpoint before the change: the early one when it holds this very version; otherwise the
 * file changed since (rare): an external version found just now gets its own checkpoint first,
 * then the one before the change.
 */
async function checkpointBeforeWrite(
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

/** Backs up the whole original (an adoption) or the text written outside Vigil that the change takes out. */
async function backUpBeforeWrite(
  state: MemoryFileState,
  change: GuardedChange,
  snapshot: MemoryFileSnapshot,
  parsed: ParsedSnapshot,
  elsewhere: string[],
): Promise<PreservedBackup[]> {
  if (change.backupWhole && snapshot.bytes.length > 0) {
    return [
      {
        reason: 'adopted-original',
        backup: (await writeMemoryBackup(state.file, snapshot.bytes)).path,
        entries: [...parsed.version.entries],
      },
    ];
  }
  if (elsewhere.length > 0) {
    return [
      {
        reason: 'external-text',
        backup: (await writeMemoryBackup(state.file, snapshot.bytes)).path,
        entries: elsewhere,
      },
    ];
  }
  return [];
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
async function writeAndRescue(
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
function noteWrittenVersion(
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

/** One attempt: read, check, decide, checkpoint, back up, write; undefined when the file changed under us. */
async function attempt(
  state: MemoryFileState,
  change: GuardedChange,
  deps: GuardedChangeDependencies,
  early: EarlyCheckpoint | undefined,
  isLastAttempt: boolean,
): Promise<MemoryMutationResult | undefined> {
  const opened = await openMemoryFile(state.file);
  let isHandedOff = false;
  try {
    const { snapshot } = opened;
    const record = await readWriteRecord(state.file);
    const found = state.observe(snapshot, { source: 'detect', record, notifications: 0 });
    if (found !== undefined) captureChange(deps.captures, found, snapshot);
    const parsed = parseSnapshot(snapshot, state.limit);
    if (refusesDrift(parsed.drift, change.driftPolicy)) await refuseDrifted(state, snapshot, parsed);
    const decision = change.decide(parsed, snapshot);
    const base = { dir: state.directory.path, target: state.target, file: state.file, applied: [...decision.applied] };
    if (!decision.isChanged) {
      return {
        ...base,
        outcome: 'unchanged',
        message: decision.message,
        entries: [...decision.entries],
        usage: parsed.usage,
        checkpoint: { status: 'not-needed' },
        preserved: [],
      };
    }
    const checkpoint = await checkpointBeforeWrite(state, change, deps, early, snapshot);
    const elsewhere = writtenElsewhere(decision.discarded, record);
    const preserved = await backUpBeforeWrite(state, change, snapshot, parsed, elsewhere);
    const text = serializeEntries(decision.entries);
    await writeWriteRecord(
      state.file,
      { sha256: sha256Of(text), writer: deps.writer, authored: authoredEntries(decision.entries, decision, record) },
      record,
    );
    const rescued = await writeAndRescue(state, deps, opened, decision.entries, text, isLastAttempt);
    if (rescued === undefined) return undefined;
    preserved.push(...rescued);
    deps.lateWrites.watch(state.file, opened, {
      hermesSidecar: hermesSidecarMode(state.directory),
      timeoutMs: deps.lockTimeoutMs,
    });
    isHandedOff = true;
    noteWrittenVersion(state, change, deps, snapshot, text);
    const notes = preserved.map((item) => describePreserved(item)).join('');
    return {
      ...base,
      outcome: 'changed',
      message: `${decision.message}${notes}`,
      entries: [...decision.entries],
      usage: usageOf(decision.entries, state.limit),
      checkpoint,
      preserved,
    };
  } finally {
    if (!isHandedOff) await opened.close();
  }
}

/**
 * Runs a change of one memory file with every guard of seed 003: in this process's queue for the
 * file, after a checkpoint taken before the lock (see `checkpointBeforeLock`), and under the
 * cross-process memory lock, it re-reads the file (reporting an external change
 * it finds), refuses a drifted file (untouched, with a `.bak` and a remediation), lets the change
 * decide, takes a checkpoint, keeps a backup of text written outside Vigil that the change takes
 * out, records what it writes, and writes through the atomic writer only if the file is still
 * the version it read (otherwise it starts over). A write that raced into the old file after the
 * read is rescued into a backup. The version written is checkpointed in the background, so every
 * version of the file that stays on disk long enough to be read is on the directory's timeline.
 */
export function runGuardedChange(
  state: MemoryFileState,
  change: GuardedChange,
  deps: GuardedChangeDependencies,
): Promise<MemoryMutationResult> {
  return state.run(async () => {
    const early = await checkpointBeforeLock(state, change, deps);
    return withMemoryLock(
      state.file,
      async () => {
        for (let number = 1; number <= maxAttempts; number += 1) {
          const result = await attempt(state, change, deps, early, number === maxAttempts);
          if (result !== undefined) return result;
        }
        throw new AppError(
          'conflict',
          `${state.file} kept changing while Vigil tried to write it; nothing was written. Retry.`,
          { file: state.file, reason: 'kept-changing' },
        );
      },
      {
        purpose: change.purpose,
        logger: deps.logger,
        // Hermes's own memory folder: its MEMORY.md.lock is flocked even before Hermes first creates it.
        hermesSidecar: hermesSidecarMode(state.directory),
        timeoutMs: deps.lockTimeoutMs,
      },
    );
  });
}
