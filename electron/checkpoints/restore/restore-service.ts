import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import type { PlainActor } from '../../../shared/contract/actor-model';
import { AppError } from '../../../shared/errors';
import {
  isIncompleteOutcome,
  type restoreProgressSchema,
  type restoreResultSchema,
} from '../../../shared/contract/checkpoints-restore-schemas';
import type { EventHub } from '../../lib/event-hub';
import { fileSystemError } from '../../files/file-system-error';
import { FileLock } from '../../locks/file-lock';
import type { Logger } from '../../logging/logger';
import { preRollbackReason } from '../../../shared/checkpoint-reasons';
import type { CheckpointApi } from '../checkpoint-service';
import { diffFiles, diffOneFile, diffPage, type DiffPage, type FileDiff } from '../diff/diff-checkpoint';
import { applyLineRestore, planLineRestore, type LineRequest, type LineRestoreContext } from './line-restore';
import type { LinePlan } from './line-restore-plan';
import { knownHashesLoader, type KnownHashes } from '../diff/diff-known-hashes';
import { readLiveTree, overlayReader, type LiveTreeRules } from '../diff/diff-live-tree';
import { createPathScope } from '../diff/diff-path-scope';
import { openDiffSides, type DiffAgainst } from '../diff/diff-sides';
import { emptyTreeOid } from '../store/git-objects';
import { applyRestorePlan } from './restore-apply';
import { planRestore, type RestorePlan } from './restore-plan';
import { findUnaccountedChanges } from './restore-scope-check';
import { createWriteLedger, type WriteLedger } from './restore-write-ledger';
import { dirHash } from '../store/store-layout';

/** The outcome of a restore. */
export type RestoreResult = z.output<typeof restoreResultSchema>;
/** A step of a running restore. */
export type RestoreProgress = z.output<typeof restoreProgressSchema>;

/** What the composition root passes to the restore service. */
export interface RestoreServiceOptions {
  /** The checkpoint engine itself (not a wrapper that also records into the ledger). */
  readonly engine: CheckpointApi;
  readonly ledger: WriteLedger;
  /** `$VIGIL_HOME/checkpoints`: per-directory restore locks live under it. */
  readonly root: string;
  /** The engine's size cap, so the live side is judged as a snapshot would judge it. */
  readonly maxFileBytes: number;
  /** Absolute folders a snapshot never enters (Vigil's data folder). */
  readonly ignoredFolders: readonly string[];
  readonly logger: Logger;
  /** Where `checkpoints:restore-progressed` goes; omitted in one-shot CLI processes. */
  readonly events?: Pick<EventHub, 'emit'>;
  /**
   * Compare the whole scope with the checkpoint again after writing (one more stat walk). On for
   * a watching engine, whose snapshot trusts watcher events that may still be in flight; a
   * one-shot engine's snapshot walks the tree itself, so it does not need it.
   */
  readonly checkScopeAfterRestore?: boolean;
  /** Wraps each restore's snapshot, plan and writes (the memory store takes its locks here); default: none. */
  readonly guard?: RestoreGuard;
}

/** Runs the part of a restore of `dir` that snapshots, plans and writes, inside whatever guard a caller needs. */
export type RestoreGuard = <T>(dir: string, work: () => Promise<T>) => Promise<T>;

/** Options of one restore. */
export interface RestoreOptions {
  /** The fingerprint of the plan the user approved; the restore refuses (`conflict`) if the directory no longer matches it. */
  readonly fingerprint?: string;
  readonly onProgress?: (progress: RestoreProgress) => void;
  /** Write the secrets files (`.env*`) the plan marks `isSecret`; without it they are skipped (`secret`) and the restore is incomplete. */
  readonly allowSecrets?: boolean;
  /** Who asked for it (the app or the CLI): its restore point says so (`Vigil-Actor`), and the write ledger records its writes as theirs. Default: Vigil. */
  readonly actor?: PlainActor;
}

/** Diff, plan and restore of checkpoints; see design.md §3–4. */
export interface RestoreService {
  /** A page of the diff between checkpoint `ref` and the directory now (or another checkpoint). */
  diff(
    dir: string,
    ref: string,
    against: DiffAgainst,
    options?: { readonly paths?: readonly string[]; readonly offset?: number; readonly limit?: number },
  ): Promise<DiffPage>;
  /** One file's hunks, capped at `maxLines` with the rest counted. */
  fileDiff(dir: string, ref: string, against: DiffAgainst, relativePath: string, maxLines?: number): Promise<FileDiff>;
  /** Several files' hunks of one comparison (a stacked view), each capped at `maxLines`; paths that did not change come back as `unchanged`. */
  fileDiffs(
    dir: string,
    ref: string,
    against: DiffAgainst,
    paths: readonly string[],
    maxLines?: number,
  ): Promise<{ readonly files: FileDiff[]; readonly unchanged: string[] }>;
  /** What restoring some lines of one file would do now; changes nothing. */
  planLines(request: LineRequest): Promise<LinePlan>;
  /** Restores some lines of one file: pre-rollback snapshot, one atomic write, read back; refuses when the file moved since the plan (`fingerprint`). */
  restoreLines(request: LineRequest, fingerprint?: string): Promise<RestoreResult>;
  /** What restoring `ref` (whole, or only `paths`) would do now; changes nothing. */
  plan(dir: string, ref: string, paths?: readonly string[]): Promise<RestorePlan>;
  /** Takes the pre-rollback snapshot, then restores `ref` (whole, or only `paths`), verifies, and reports per file. */
  restore(dir: string, ref: string, paths?: readonly string[], options?: RestoreOptions): Promise<RestoreResult>;
}

/** Where the write ledger lives under `$VIGIL_HOME/checkpoints` (a folder snapshots never enter). */
export function writeLedgerFile(root: string): string {
  return path.join(root, 'written.jsonl');
}

/**
 * The restore service of an engine with everything in its usual place under `root`
 * (`$VIGIL_HOME/checkpoints`): the write ledger (the core's one ledger when given), the restore
 * locks, the engine's size cap.
 */
export function restoreServiceFor(
  engine: CheckpointApi & { readonly maxFileBytes: number },
  root: string,
  logger: Logger,
  events?: Pick<EventHub, 'emit'>,
  extra: Pick<RestoreServiceOptions, 'checkScopeAfterRestore' | 'guard'> & { readonly ledger?: WriteLedger } = {},
): RestoreService {
  const { ledger: given, ...rest } = extra;
  const ledger = given ?? createWriteLedger(writeLedgerFile(root), logger);
  return createRestoreService({
    engine,
    ledger,
    root,
    maxFileBytes: engine.maxFileBytes,
    ignoredFolders: [root],
    logger,
    ...(events && { events }),
    ...rest,
  });
}

/** How many of the newest checkpoints are searched for the pre-rollback snapshot's number. */
const undoSearchLimit = 20;

/** The number (1 = newest) of checkpoint `id` among the newest of `dir`'s timeline, or undefined when it is further down or cannot be listed. */
async function numberInTimeline(engine: CheckpointApi, dir: string, id: string): Promise<number | undefined> {
  const newest = await engine.list(dir, { limit: undoSearchLimit }).catch(() => []);
  const index = newest.findIndex((entry) => entry.id === id);
  return index < 0 ? undefined : index + 1;
}

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

/** Builds the restore service over the checkpoint engine. */
export function createRestoreService(options: RestoreServiceOptions): RestoreService {
  const { engine, ledger } = options;
  const rules: LiveTreeRules = { maxFileBytes: options.maxFileBytes, ignoredFolders: options.ignoredFolders };
  const store = { readTree: (oid: string) => engine.readTree(oid) };
  const locks = new Map<string, FileLock>();
  const loadKnown: (dir: string) => Promise<KnownHashes> = knownHashesLoader(options.root, (dir) =>
    engine.knownHashes(dir),
  );

  /** One restore per directory at a time, across processes; other directories are not held up. */
  const directoryLock = (dir: string): FileLock => {
    const key = dirHash(dir);
    let lock = locks.get(key);
    if (lock === undefined) {
      lock = new FileLock({
        path: path.join(options.root, 'restore-locks', `${key}.lock`),
        resource: `restores of ${dir}`,
        timeoutMs: 10 * 60_000,
      });
      locks.set(key, lock);
    }
    return lock;
  };

  // While a restore runs, no retention cut drops its checkpoint and no maintenance deletes what it reads;
  // the guard takes the memory locks when the folder is a memory folder.
  const runRestore = <T>(dir: string, checkpointId: string, task: () => Promise<T>): Promise<T> => {
    const guard: RestoreGuard = options.guard ?? ((_dir, work) => work());
    return directoryLock(dir).withLock(
      () => guard(dir, () => engine.duringRestore(checkpointId, task)),
      `restore of ${dir}`,
    );
  };
  const lineContext = (onProgress?: (progress: RestoreProgress) => void): LineRestoreContext => ({
    engine,
    ledger,
    maxFileBytes: options.maxFileBytes,
    logger: options.logger,
    run: runRestore,
    report: (progress) => {
      onProgress?.(progress);
      options.events?.emit('checkpoints:restore-progressed', progress);
    },
  });

  return {
    async diff(dir, ref, against, { paths = [], offset = 0, limit = 200 } = {}) {
      const sides = await openDiffSides(engine, rules, dir, ref, against, createPathScope(paths), loadKnown);
      return diffPage(engine, sides, offset, limit);
    },

    async fileDiff(dir, ref, against, relativePath, maxLines = 2_000) {
      const scope = createPathScope([relativePath]);
      const sides = await openDiffSides(engine, rules, dir, ref, against, scope, loadKnown);
      return diffOneFile(engine, sides, scope.paths[0] ?? relativePath, maxLines);
    },

    async fileDiffs(dir, ref, against, paths, maxLines = 2_000) {
      const scope = createPathScope(paths);
      const sides = await openDiffSides(engine, rules, dir, ref, against, scope, loadKnown);
      return diffFiles(engine, sides, scope.paths, maxLines);
    },

    planLines: (request) => planLineRestore(lineContext(), request),

    restoreLines: (request, fingerprint) => applyLineRestore(lineContext(), request, fingerprint),

    async plan(dir, ref, paths = []) {
      const scope = createPathScope(paths);
      const checkpoint = await engine.resolve(dir, ref);
      const live = await readLiveTree(checkpoint.dir, rules, scope, await loadKnown(checkpoint.dir));
      return planRestore({
        dir: checkpoint.dir,
        checkpoint,
        scope,
        current: { tree: live.root, reader: overlayReader(live, store) },
        maxFileBytes: options.maxFileBytes,
        ledger,
        readBlob: (oid) => engine.readBlob(oid),
      });
    },

    async restore(dir, ref, paths = [], { fingerprint, onProgress, allowSecrets = false, actor = 'vigil' } = {}) {
      const scope = createPathScope(paths);
      const checkpoint = await engine.resolve(dir, ref);
      const report = (progress: Omit<RestoreProgress, 'dir' | 'checkpoint'>): void => {
        const event = { dir: checkpoint.dir, checkpoint: checkpoint.id, ...progress };
        onProgress?.(event);
        options.events?.emit('checkpoints:restore-progressed', event);
      };
      const result = await runRestore(checkpoint.dir, checkpoint.id, async (): Promise<RestoreResult> => {
        report({ phase: 'snapshot', done: 0, total: 1 });
        // A folder deleted whole is brought back: its checkpoints outlive it.
        await mkdir(checkpoint.dir, { recursive: true }).catch((error: unknown) => {
          throw fileSystemError(error, 'bring back the folder', checkpoint.dir);
        });
        const pre = await engine.checkpoint(checkpoint.dir, {
          reason: preRollbackReason(checkpoint.id),
          kind: 'pre-rollback',
          restores: checkpoint.id,
          attribution: { actor },
          ...(scope.paths.length > 0 && {
            paths: scope.paths.map((item) => path.join(checkpoint.dir, ...item.split('/'))),
            onlyPaths: true,
          }),
        });
        if (pre.kind !== 'created') throw new Error('the engine did not create the pre-rollback snapshot');
        const preRollback = { id: pre.checkpoint.id, reason: pre.checkpoint.reason, time: pre.checkpoint.time };
        report({ phase: 'snapshot', done: 1, total: 1 });
        const plan = await planRestore({
          dir: checkpoint.dir,
          checkpoint,
          scope,
          current: { tree: rootOf(pre.checkpoint.tree), reader: store },
          maxFileBytes: options.maxFileBytes,
          ledger,
          readBlob: (oid) => engine.readBlob(oid),
        });
        if (fingerprint !== undefined && fingerprint !== plan.fingerprint) {
          throw new AppError(
            'conflict',
            `${checkpoint.dir} changed since this restore was planned, so nothing was restored. Review the new plan and restore again (the snapshot ${preRollback.id.slice(0, 8)} taken just now holds the current state).`,
            { expected: fingerprint, actual: plan.fingerprint, preRollback: preRollback.id },
          );
        }
        const applied = await applyRestorePlan({
          plan: allowSecrets ? plan : withoutSecrets(plan),
          checkpointTree: rootOf(checkpoint.tree),
          reader: store,
          readBlob: (oid) => engine.readBlob(oid),
          onProgress: (progress) => report(progress),
          known: await loadKnown(checkpoint.dir),
        });
        await ledger.record(applied.touched, { kind: actor });
        engine.noteWritten(applied.touched);
        const outcomes = [...applied.outcomes];
        const unaccounted =
          options.checkScopeAfterRestore === true
            ? await findUnaccountedChanges({
                dir: checkpoint.dir,
                checkpointTree: rootOf(checkpoint.tree),
                scope,
                rules,
                known: knownEither(applied.readBack, await loadKnown(checkpoint.dir)),
                store,
                outcomes,
              })
            : [];
        outcomes.push(...unaccounted);
        const counts = { done: 0, skipped: 0, conflict: 0, failed: 0 };
        for (const outcome of outcomes) counts[outcome.result] += 1;
        const incomplete = outcomes.filter(isIncompleteOutcome).length;
        const status = incomplete > 0 ? 'incomplete' : counts.done === 0 ? 'nothing-to-do' : 'complete';
        report({ phase: 'done', done: counts.done, total: outcomes.length, status, incomplete });
        options.logger.info('restore applied', {
          dir: checkpoint.dir,
          checkpoint: checkpoint.id,
          preRollback: preRollback.id,
          status,
          incomplete,
          ...counts,
        });
        return {
          plan,
          preRollback,
          outcomes,
          counts,
          removedDirectories: [...applied.removedDirectories],
          isVerified: applied.isVerified && unaccounted.length === 0,
          status,
          incomplete,
        };
      });
      // The number that undoes it, as the timeline shows it now: the CLI prints it without another call.
      const undoNumber = await numberInTimeline(engine, checkpoint.dir, result.preRollback.id);
      return undoNumber === undefined ? result : { ...result, undoNumber };
    },
  };
}
