import type { PlainActor } from '../../../shared/contract/actor-model';
import path from 'node:path';
import { AppError } from '../../../shared/errors';
import { readFileIdentity } from '../../files';
import type { Logger } from '../../logging';
import type { CheckpointApi } from '../checkpoint-api';
import { preRollbackReason } from '../../../shared/checkpoint-reasons';
import type { CheckpointEntry } from '../checkpoint-types';
import { absoluteIn, createPathScope, lookupPath, readDiskVersion, type TreeReader } from '../compare';
import { emptyTreeOid } from '../../git-store';
import {
  checkBasis,
  checkpointFile,
  currentFile,
  prepareLines,
  type LineChoice,
  type LinePlan,
} from './line-restore-plan';
import { expectVersion, putFile } from './restore-file-ops';
import type { RestoreProgress, RestoreResult } from './restore-service';
import type { WriteLedger } from './restore-write-ledger';

/** A line restore as a caller asks for it. */
export interface LineRequest {
  readonly dir: string;
  readonly ref: string;
  readonly path: string;
  readonly lines: LineChoice;
  /** The blob id of the version the rows were picked on. */
  readonly basis?: string | undefined;
  /** Who asked for it (the app or the CLI): its restore point says so, and the write ledger records the write as theirs. Default: Vigil. */
  readonly actor?: PlainActor | undefined;
}

/** What line restores need from the restore service. */
export interface LineRestoreContext {
  readonly engine: Pick<CheckpointApi, 'resolve' | 'readTree' | 'readBlob' | 'checkpoint' | 'noteWritten'>;
  readonly ledger: WriteLedger;
  readonly maxFileBytes: number;
  readonly logger: Logger;
  /** Runs `task` as a restore of `checkpoint` in `dir`: one restore per directory, retention and maintenance held back. */
  run<T>(dir: string, checkpointId: string, task: () => Promise<T>): Promise<T>;
  report(progress: RestoreProgress): void;
}

function storeOf(context: LineRestoreContext): TreeReader {
  return { readTree: (oid) => context.engine.readTree(oid) };
}

/** Whether the file's version on disk is one Vigil did not write itself. */
async function isOutsideAgents(context: LineRestoreContext, absolute: string): Promise<boolean> {
  const isVigilVersion = await context.ledger.view();
  return !isVigilVersion(absolute, await readFileIdentity(absolute));
}

/** What restoring some lines of a file to a checkpoint would do; changes nothing. */
export async function planLineRestore(context: LineRestoreContext, request: LineRequest): Promise<LinePlan> {
  const relativePath = createPathScope([request.path]).paths[0] ?? request.path;
  const checkpoint = await context.engine.resolve(request.dir, request.ref);
  const current = await currentFile(checkpoint.dir, relativePath, context.maxFileBytes);
  checkBasis(relativePath, request.basis, current.version);
  const old = await checkpointFile(storeOf(context), (oid) => context.engine.readBlob(oid), checkpoint, relativePath);
  const isChangedOutsideAgents = await isOutsideAgents(context, absoluteIn(checkpoint.dir, relativePath));
  return prepareLines({
    dir: checkpoint.dir,
    checkpoint,
    path: relativePath,
    lines: request.lines,
    old,
    current,
    isChangedOutsideAgents,
  }).plan;
}

/** The file as the pre-rollback snapshot holds it: the version the write must replace. */
async function snapshotVersion(context: LineRestoreContext, snapshot: CheckpointEntry, relativePath: string) {
  const entry = await lookupPath(
    storeOf(context),
    snapshot.tree === emptyTreeOid ? undefined : snapshot.tree,
    relativePath,
  );
  if (entry?.type !== 'blob')
    throw new AppError('conflict', `${relativePath} went away while the restore started; nothing was written.`, {
      path: relativePath,
    });
  return { version: { mode: entry.mode, oid: entry.oid }, bytes: await context.engine.readBlob(entry.oid) };
}

/** The outcome of a line restore in the shape of any restore's, so its undo and its report are the same. */
function lineResult(plan: LinePlan, preRollback: CheckpointEntry, isVerified: boolean): RestoreResult {
  const changed = plan.result.oid !== plan.current.oid;
  return {
    plan: {
      dir: plan.dir,
      checkpoint: plan.checkpoint,
      paths: [plan.path],
      entries: [
        {
          path: plan.path,
          action: 'restore',
          current: plan.current,
          isChangedOutsideAgents: plan.isChangedOutsideAgents,
          note: `only the chosen lines go back to the checkpoint`,
        },
      ],
      counts: { restore: 1, recreate: 0, delete: 0, skip: 0 },
      changedOutsideAgents: plan.isChangedOutsideAgents ? 1 : 0,
      fingerprint: plan.fingerprint,
      lines: { path: plan.path, selection: plan.selection, putBack: plan.putBack, takenOut: plan.takenOut },
    },
    preRollback: { id: preRollback.id, reason: preRollback.reason, time: preRollback.time },
    outcomes: [
      changed
        ? {
            path: plan.path,
            action: 'restore',
            result: isVerified ? 'done' : 'failed',
            ...(isVerified
              ? {}
              : {
                  message: `${plan.path} does not hold the restored lines after the write (another program changed it?). Restore them again.`,
                }),
          }
        : {
            path: plan.path,
            action: 'restore',
            result: 'skipped',
            reason: 'unchanged',
            message: 'The chosen lines already match the checkpoint.',
          },
    ],
    counts: {
      done: changed && isVerified ? 1 : 0,
      skipped: changed ? 0 : 1,
      conflict: 0,
      failed: changed && !isVerified ? 1 : 0,
    },
    removedDirectories: [],
    isVerified,
    status: !changed ? 'nothing-to-do' : isVerified ? 'complete' : 'incomplete',
    incomplete: changed && !isVerified ? 1 : 0,
  };
}

/**
 * Restores some lines of a file, as every restore goes: the pre-rollback snapshot of the file
 * first (it shows on the timeline, and restoring it undoes this), then the merge of the version
 * that snapshot holds, one atomic write that insists on that version, and a read-back. With a
 * `fingerprint` (the plan the user saw), a file that moved since is refused, nothing written.
 */
export async function applyLineRestore(
  context: LineRestoreContext,
  request: LineRequest,
  fingerprint: string | undefined,
): Promise<RestoreResult> {
  const relativePath = createPathScope([request.path]).paths[0] ?? request.path;
  const checkpoint = await context.engine.resolve(request.dir, request.ref);
  const absolute = absoluteIn(checkpoint.dir, relativePath);
  return context.run(checkpoint.dir, checkpoint.id, async () => {
    // Refused requests leave no snapshot: the file is checked before it is snapshotted, and again after.
    const seen = await currentFile(checkpoint.dir, relativePath, context.maxFileBytes);
    checkBasis(relativePath, request.basis, seen.version);
    const old = await checkpointFile(storeOf(context), (oid) => context.engine.readBlob(oid), checkpoint, relativePath);
    const isChangedOutsideAgents = await isOutsideAgents(context, absolute);
    const early = prepareLines({
      dir: checkpoint.dir,
      checkpoint,
      path: relativePath,
      lines: request.lines,
      old,
      current: seen,
      isChangedOutsideAgents,
    });
    if (fingerprint !== undefined && fingerprint !== early.plan.fingerprint)
      throw movedSincePlan(relativePath, checkpoint.dir);
    context.report({ dir: checkpoint.dir, checkpoint: checkpoint.id, phase: 'snapshot', done: 0, total: 1 });
    const pre = await context.engine.checkpoint(checkpoint.dir, {
      reason: preRollbackReason(checkpoint.id),
      kind: 'pre-rollback',
      restores: checkpoint.id,
      // The whole folder: its undo is a whole restore of this point (see restore-run.ts).
      paths: [absolute],
      attribution: { actor: request.actor ?? 'vigil' },
    });
    if (pre.kind !== 'created') throw new Error('the engine did not create the pre-rollback snapshot');
    context.report({ dir: checkpoint.dir, checkpoint: checkpoint.id, phase: 'snapshot', done: 1, total: 1 });
    const held = await snapshotVersion(context, pre.checkpoint, relativePath);
    const { plan, content } = prepareLines({
      dir: checkpoint.dir,
      checkpoint,
      path: relativePath,
      lines: request.lines,
      old,
      current: held,
      isChangedOutsideAgents,
    });
    if (plan.fingerprint !== early.plan.fingerprint)
      throw movedSincePlan(relativePath, checkpoint.dir, pre.checkpoint.id);
    let isVerified = true;
    if (plan.result.oid !== plan.current.oid) {
      context.report({ dir: checkpoint.dir, checkpoint: checkpoint.id, phase: 'write', done: 0, total: 1 });
      const found = await expectVersion({ path: absolute, dir: checkpoint.dir }, held.version);
      await putFile(absolute, plan.result, content, found);
      await context.ledger.record([absolute], { kind: request.actor ?? 'vigil' });
      context.engine.noteWritten([absolute]);
      // Read back in its own folder, never through a folder on the way swapped for a symlink since the write.
      const written = await readDiskVersion(absolute, undefined, { within: checkpoint.dir });
      isVerified = written.file?.oid === plan.result.oid && written.file.mode === plan.result.mode;
    }
    const result = lineResult(plan, pre.checkpoint, isVerified);
    context.report({
      dir: checkpoint.dir,
      checkpoint: checkpoint.id,
      phase: 'done',
      done: result.counts.done,
      total: 1,
      status: result.status,
      incomplete: result.incomplete,
    });
    context.logger.info('lines restored', {
      dir: checkpoint.dir,
      checkpoint: checkpoint.id,
      path: relativePath,
      preRollback: pre.checkpoint.id,
      putBack: plan.putBack,
      takenOut: plan.takenOut,
      status: result.status,
    });
    return result;
  });
}

function movedSincePlan(relativePath: string, dir: string, snapshot?: string): AppError {
  const held =
    snapshot === undefined ? '' : ` (the snapshot ${snapshot.slice(0, 8)} taken just now holds its current version)`;
  return new AppError(
    'conflict',
    `${relativePath} changed since these lines were planned, so nothing was restored${held}. Review the new plan and restore again, or restore the whole file.`,
    {
      path: relativePath,
      dir: path.resolve(dir),
      choice: 'restore-whole-file',
    },
  );
}
