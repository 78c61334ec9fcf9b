import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { PlainActor } from '../../../shared/contract/actor-model';
import { AppError } from '../../../shared/errors';
import { isIncompleteOutcome } from '../../../shared/contract/checkpoints-restore-schemas';
import { fileSystemError } from '../../files';
import type { Logger } from '../../logging';
import { preRollbackReason } from '../../../shared/checkpoint-reasons';
import type { CheckpointApi } from '../checkpoint-api';
import type { CheckpointEntry } from '../checkpoint-types';
import type { DiskVersion, KnownHashes, LiveTreeRules, PathScope, TreeReader } from '../compare';
import { emptyTreeOid } from '../../git-store';
import { applyRestorePlan, type ApplyResult, type RestoreOutcome } from './restore-apply';
import { planRestore, type RestorePlan } from './restore-plan';
import { findUnaccountedChanges } from './restore-scope-check';
import type { WriteLedger } from './restore-write-ledger';
import { warmUpRestore } from './restore-warm-up';
import { forcedPaths } from './restore-forced';
import type { RestoreProgress, RestoreResult } from './restore-service';

/** What a whole restore needs from the service that runs it. */
export interface WholeRestoreContext {
  readonly engine: CheckpointApi;
  readonly ledger: WriteLedger;
  readonly rules: LiveTreeRules;
  readonly store: TreeReader;
  readonly maxFileBytes: number;
  readonly logger: Logger;
  readonly checkScopeAfterRestore: boolean;
  readonly loadKnown: (dir: string) => Promise<KnownHashes>;
}

/** One whole restore's request, already resolved to its checkpoint. */
export interface WholeRestoreRequest {
  readonly checkpoint: CheckpointEntry;
  readonly scope: PathScope;
  readonly fingerprint: string | undefined;
  readonly allowSecrets: boolean;
  readonly actor: PlainActor;
  readonly report: (progress: Omit<RestoreProgress, 'dir' | 'checkpoint'>) => void;
}

type PreRollback = RestoreResult['preRollback'];
type Counts = RestoreResult['counts'];

/** Known hashes from the first source that knows the file, else the second. */
function knownEither(first: KnownHashes, second: KnownHashes): KnownHashes {
  return {
    oidOf: (relativePath, stats, mode) =>
      first.oidOf(relativePath, stats, mode) ?? second.oidOf(relativePath, stats, mode),
  };
}

function rootOf(tree: string): string | undefined {
  return tree === emptyTreeOid ? undefined : tree;
}

/**
 * The plan with its secrets files skipped (`secret`): the user did not confirm writing them. A
 * secrets file named one by one in the restore's paths was asked for by name, which confirms it.
 */
function withoutSecrets(plan: RestorePlan): RestorePlan {
  const named = new Set(plan.paths);
  return {
    ...plan,
    entries: plan.entries.map((entry) =>
      entry.isSecret === true && entry.action !== 'skip' && !named.has(entry.path)
        ? {
            ...entry,
            action: 'skip' as const,
            reason: 'secret' as const,
            note: "A secrets file from another program's store: it is written only when you confirm (--secrets, or the checkbox in the restore dialog).",
          }
        : entry,
    ),
  };
}

/** Brings the folder back if it was deleted whole, then snapshots what the restore is about to overwrite. */
async function takePreRollback(
  context: WholeRestoreContext,
  request: WholeRestoreRequest,
): Promise<{ readonly tree: string; readonly preRollback: PreRollback; readonly timeline: string }> {
  const { checkpoint, scope } = request;
  // The rules known before the snapshot (its walk may rebuild them: the plan reads them again after it).
  const { rules } = await context.engine.storeRules(checkpoint.dir);
  // The files the restore will write that the rules leave out: the restore point holds them too, so undo brings them back.
  const named = new Set(scope.paths);
  const forced = await forcedPaths({
    engine: context.engine,
    reader: context.store,
    checkpoint,
    scope,
    rules,
    isSecretWritten: (relativePath) => request.allowSecrets || named.has(relativePath),
    ledger: context.ledger,
  });
  // A folder deleted whole is brought back: its checkpoints outlive it.
  await mkdir(checkpoint.dir, { recursive: true }).catch((error: unknown) => {
    throw fileSystemError(error, 'bring back the folder', checkpoint.dir);
  });
  const pre = await context.engine.checkpoint(checkpoint.dir, {
    reason: preRollbackReason(checkpoint.id),
    kind: 'pre-rollback',
    restores: checkpoint.id,
    attribution: { actor: request.actor },
    // The whole folder, even for chosen files: restoring the restore point (the printed undo) is a whole restore, so
    // a point that kept the other files as an older checkpoint had them would undo every edit outside the choice.
    ...(scope.paths.length > 0 && { paths: scope.paths.map((item) => path.join(checkpoint.dir, ...item.split('/'))) }),
    ...(forced.length > 0 && { forcePaths: forced.map((item) => path.join(checkpoint.dir, ...item.split('/'))) }),
  });
  if (pre.kind !== 'created') throw new Error('the engine did not create the pre-rollback snapshot');
  const preRollback = { id: pre.checkpoint.id, reason: pre.checkpoint.reason, time: pre.checkpoint.time };
  return { tree: pre.checkpoint.tree, preRollback, timeline: pre.checkpoint.dir };
}

/** Refuses (`conflict`) when the directory no longer matches the plan the user approved. */
function checkFingerprint(request: WholeRestoreRequest, plan: RestorePlan, preRollback: PreRollback): void {
  const { fingerprint, checkpoint } = request;
  if (fingerprint !== undefined && fingerprint !== plan.fingerprint) {
    throw new AppError(
      'conflict',
      `${checkpoint.dir} changed since this restore was planned, so nothing was restored. Review the new plan and restore again (the snapshot ${preRollback.id.slice(0, 8)} taken just now holds the current state).`,
      { expected: fingerprint, actual: plan.fingerprint, preRollback: preRollback.id },
    );
  }
}

/** Changes in scope the writes did not account for, when the service checks the scope again after writing. */
async function unaccountedChanges(
  context: WholeRestoreContext,
  request: WholeRestoreRequest,
  applied: ApplyResult,
  outcomes: readonly RestoreOutcome[],
): Promise<RestoreOutcome[]> {
  if (!context.checkScopeAfterRestore) return [];
  const { checkpoint } = request;
  // The folder's own rules, as its snapshots judge it: by the built-in names alone, a repository's ignored
  // files (which no checkpoint holds) looked like files the restore should have deleted, a false conflict.
  // Read after the writes, which may have brought back or removed a `.gitignore`.
  const { rules: storeRules } = await context.engine.storeRules(checkpoint.dir);
  return findUnaccountedChanges({
    dir: checkpoint.dir,
    checkpointTree: rootOf(checkpoint.tree),
    scope: request.scope,
    rules: { ...context.rules, storeRules },
    known: knownEither(applied.readBack, await context.loadKnown(checkpoint.dir)),
    readBack: applied.readBack,
    store: context.store,
    outcomes,
  });
}

/** The per-result counts, how many outcomes leave the restore incomplete, and the overall status. */
function summarize(outcomes: readonly RestoreOutcome[]): {
  readonly counts: Counts;
  readonly incomplete: number;
  readonly status: RestoreResult['status'];
} {
  const counts = { done: 0, skipped: 0, conflict: 0, failed: 0 };
  for (const outcome of outcomes) counts[outcome.result] += 1;
  const incomplete = outcomes.filter(isIncompleteOutcome).length;
  const status = incomplete > 0 ? 'incomplete' : counts.done === 0 ? 'nothing-to-do' : 'complete';
  return { counts, incomplete, status };
}

/** A whole restore's result, and the resolved folder whose timeline its pre-rollback snapshot went into. */
export interface WholeRestoreRun {
  readonly result: RestoreResult;
  /** The snapshot's own `dir`: its undo number is looked up there, without resolving the folder again. */
  readonly undoTimeline: string;
}

/** Snapshot, plan, fingerprint check, writes, ledger, scope check and summary of one whole restore, in that order. */
export async function runWholeRestore(
  context: WholeRestoreContext,
  request: WholeRestoreRequest,
): Promise<WholeRestoreRun> {
  const { engine, ledger, store } = context;
  const { checkpoint, report } = request;
  report({ phase: 'snapshot', done: 0, total: 1 });
  // Named paths: what the writes will read and list is read and listed while the snapshot runs (reads only).
  const warming =
    request.scope.paths.length === 0
      ? undefined
      : warmUpRestore({
          dir: checkpoint.dir,
          checkpointTree: rootOf(checkpoint.tree),
          paths: request.scope.paths,
          reader: store,
          readBlob: (oid) => engine.readBlob(oid),
        });
  const pre = await takePreRollback(context, request).catch(async (error: unknown) => {
    await warming;
    throw error;
  });
  const warmed = await warming;
  const { preRollback } = pre;
  report({ phase: 'snapshot', done: 1, total: 1 });
  // The rules the restore point was stored by (its walk rebuilds them for a clone made since the last checkpoint).
  const { rules } = await engine.storeRules(checkpoint.dir);
  const known = await context.loadKnown(checkpoint.dir);
  // What the plan finds at each path is what the writes insist on: each file is looked at once before its write.
  const seen = { known, versions: new Map<string, DiskVersion>() };
  const plan = await planRestore({
    dir: checkpoint.dir,
    checkpoint,
    scope: request.scope,
    current: { tree: rootOf(pre.tree), reader: store },
    maxFileBytes: context.maxFileBytes,
    ledger,
    readBlob: (oid) => engine.readBlob(oid),
    rules,
    seen,
  });
  checkFingerprint(request, plan, preRollback);
  const applied = await applyRestorePlan({
    plan: request.allowSecrets ? plan : withoutSecrets(plan),
    checkpointTree: rootOf(checkpoint.tree),
    reader: store,
    // A blob read ahead is taken as read (an object never changes); the others are read now.
    readBlob: (oid) => {
      const ahead = warmed?.blobs.get(oid);
      return ahead === undefined ? engine.readBlob(oid) : Promise.resolve(ahead);
    },
    onProgress: (progress) => report(progress),
    known,
    seen: seen.versions,
    // Only a check of the whole directory lists every folder written (named paths are looked up by name).
    isSweepLeftToScopeCheck: context.checkScopeAfterRestore && request.scope.paths.length === 0,
    ...(warmed !== undefined && { listedTemps: warmed.temps }),
  });
  // The versions the read-back just found, so the ledger need not look at every file again.
  await ledger.recordObserved(applied.written, { kind: request.actor }, preRollback.id);
  engine.noteWritten(applied.touched);
  const outcomes = [...applied.outcomes];
  const unaccounted = await unaccountedChanges(context, request, applied, outcomes);
  outcomes.push(...unaccounted);
  const { counts, incomplete, status } = summarize(outcomes);
  report({ phase: 'done', done: counts.done, total: outcomes.length, status, incomplete });
  context.logger.info('restore applied', {
    dir: checkpoint.dir,
    checkpoint: checkpoint.id,
    preRollback: preRollback.id,
    status,
    incomplete,
    ...counts,
  });
  const result: RestoreResult = {
    plan,
    preRollback,
    outcomes,
    counts,
    removedDirectories: [...applied.removedDirectories],
    isVerified: applied.isVerified && unaccounted.length === 0,
    status,
    incomplete,
  };
  return { result, undoTimeline: pre.timeline };
}
