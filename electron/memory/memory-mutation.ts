import type { MemoryMutationResult, PreservedBackup } from '../../shared/contract/memory-contract';
import { AppError } from '../../shared/errors';
import { captureChange } from './memory-capture';
import { openMemoryFile, sha256Of, type MemoryFileSnapshot } from './memory-file';
import { parseSnapshot, type MemoryFileState, type ParsedSnapshot } from './memory-file-state';
import { serializeEntries, usageOf } from './memory-format';
import { hermesSidecarMode, withMemoryLock } from './memory-lock';
import { writeMemoryBackup } from './memory-backup';
import { driftError } from './memory-refusal';
import { entryDigest, readWriteRecord, writeWriteRecord, type MemoryWriteRecord } from './memory-write-record';
import {
  refusesDrift,
  type ChangeDecision,
  type GuardedChange,
  type GuardedChangeDependencies,
} from './guarded-change';
import { checkpointBeforeLock, checkpointBeforeWrite, type EarlyCheckpoint } from './guarded-change-checkpoint';
import { maxAttempts, noteWrittenVersion, writeAndRescue } from './guarded-change-write';

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
