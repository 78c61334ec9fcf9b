import path from 'node:path';
import type { z } from 'zod';
import type { PlainActor } from '../../../shared/contract/actor-model';
import type { restoreProgressSchema, restoreResultSchema } from '../../../shared/contract/checkpoints-restore-schemas';
import type { EventHub } from '../../lib';
import { FileLock } from '../../locks';
import type { Logger } from '../../logging';
import type { CheckpointApi } from '../checkpoint-service';
import { CheckpointAnnouncer } from '../events/checkpoint-announcer';
import { applyLineRestore, planLineRestore, type LineRequest, type LineRestoreContext } from './line-restore';
import type { LinePlan } from './line-restore-plan';
import { createPathScope, knownHashesLoader, liveRulesOf, type KnownHashes, type LiveTreeRules } from '../compare';
import type { RestorePlan } from './restore-plan';
import { createWriteLedger, writeLedgerFile, type WriteLedger } from './restore-write-ledger';
import { dirHash } from '../../git-store';
import { runWholeRestore, type WholeRestoreContext } from './restore-run';
import { previewPlan } from './restore-forced';

/** Where the write ledger lives (kept here too for callers that load the restore service anyway). */
export { writeLedgerFile } from './restore-write-ledger';

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

/** Plan and restore of checkpoints, whole or some lines; see design.md §4. (Diffs are the diff service's.) */
export interface RestoreService {
  /** What restoring some lines of one file would do now; changes nothing. */
  planLines(request: LineRequest): Promise<LinePlan>;
  /** Restores some lines of one file: pre-rollback snapshot, one atomic write, read back; refuses when the file moved since the plan (`fingerprint`). */
  restoreLines(request: LineRequest, fingerprint?: string): Promise<RestoreResult>;
  /** What restoring `ref` (whole, or only `paths`) would do now; changes nothing. */
  plan(dir: string, ref: string, paths?: readonly string[]): Promise<RestorePlan>;
  /** Takes the pre-rollback snapshot, then restores `ref` (whole, or only `paths`), verifies, and reports per file. */
  restore(dir: string, ref: string, paths?: readonly string[], options?: RestoreOptions): Promise<RestoreResult>;
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

/**
 * The number (1 = newest) of checkpoint `id` among the newest of the timeline of `resolved` (a
 * resolved folder: the snapshot's own `dir`), or undefined when it is further down or cannot be
 * listed. The head is read now, so a checkpoint taken since counts; only ids and times are read.
 */
async function numberInTimeline(engine: CheckpointApi, resolved: string, id: string): Promise<number | undefined> {
  const newest = await engine
    .list(resolved, { limit: undoSearchLimit, isResolved: true, isBare: true })
    .catch(() => []);
  const index = newest.findIndex((entry) => entry.id === id);
  return index < 0 ? undefined : index + 1;
}

/** One restore per directory at a time, across processes; other directories are not held up. */
function directoryLocks(root: string): (dir: string) => FileLock {
  const locks = new Map<string, FileLock>();
  return (dir) => {
    const key = dirHash(dir);
    let lock = locks.get(key);
    if (lock === undefined) {
      lock = new FileLock({
        path: path.join(root, 'restore-locks', `${key}.lock`),
        resource: `restores of ${dir}`,
        timeoutMs: 10 * 60_000,
      });
      locks.set(key, lock);
    }
    return lock;
  };
}

/** Runs a restore of `dir` under its directory lock, the caller's guard and the engine's restore hold. */
function restoreRunner(
  options: RestoreServiceOptions,
): <T>(dir: string, checkpointId: string, task: () => Promise<T>) => Promise<T> {
  const directoryLock = directoryLocks(options.root);
  // While a restore runs, no retention cut drops its checkpoint and no maintenance deletes what it reads;
  // the guard takes the memory locks when the folder is a memory folder.
  return <T>(dir: string, checkpointId: string, task: () => Promise<T>): Promise<T> => {
    const guard: RestoreGuard = options.guard ?? ((_dir, work) => work());
    return directoryLock(dir).withLock(
      () => guard(dir, () => options.engine.duringRestore(checkpointId, task)),
      `restore of ${dir}`,
    );
  };
}

/** What a line restore needs: the service's engine and ledger, its runner, and where progress goes. */
function lineContextFor(
  options: RestoreServiceOptions,
  announcer: CheckpointAnnouncer,
  run: LineRestoreContext['run'],
  onProgress?: (progress: RestoreProgress) => void,
): LineRestoreContext {
  return {
    engine: options.engine,
    ledger: options.ledger,
    maxFileBytes: options.maxFileBytes,
    logger: options.logger,
    run,
    report: (progress) => {
      onProgress?.(progress);
      announcer.restoreProgressed(progress);
    },
  };
}

/** Builds the restore service over the checkpoint engine. */
export function createRestoreService(options: RestoreServiceOptions): RestoreService {
  const { engine, ledger } = options;
  const baseRules: LiveTreeRules = { maxFileBytes: options.maxFileBytes, ignoredFolders: options.ignoredFolders };
  // A live side is judged by the directory's own store rules (its repository's tracked files and ignore rules).
  const rulesFor = liveRulesOf(engine, baseRules);
  const store = { readTree: (oid: string) => engine.readTree(oid) };
  const loadKnown: (dir: string) => Promise<KnownHashes> = knownHashesLoader(options.root, (dir) =>
    engine.knownHashes(dir),
  );
  const runRestore = restoreRunner(options);
  const announcer = new CheckpointAnnouncer(options.events);
  const lineContext = (onProgress?: (progress: RestoreProgress) => void): LineRestoreContext =>
    lineContextFor(options, announcer, runRestore, onProgress);

  const wholeContext: WholeRestoreContext = {
    engine,
    ledger,
    rules: baseRules,
    store,
    maxFileBytes: options.maxFileBytes,
    logger: options.logger,
    checkScopeAfterRestore: options.checkScopeAfterRestore === true,
    loadKnown,
  };

  return {
    planLines: (request) => planLineRestore(lineContext(), request),

    restoreLines: (request, fingerprint) => applyLineRestore(lineContext(), request, fingerprint),

    async plan(dir, ref, paths = []) {
      const checkpoint = await engine.resolve(dir, ref);
      return previewPlan({
        engine,
        store,
        checkpoint,
        scope: createPathScope(paths),
        rulesFor,
        known: await loadKnown(checkpoint.dir),
        ledger,
      });
    },

    async restore(dir, ref, paths = [], { fingerprint, onProgress, allowSecrets = false, actor = 'vigil' } = {}) {
      const scope = createPathScope(paths);
      const checkpoint = await engine.resolve(dir, ref);
      const report = (progress: Omit<RestoreProgress, 'dir' | 'checkpoint'>): void => {
        const event = { dir: checkpoint.dir, checkpoint: checkpoint.id, ...progress };
        onProgress?.(event);
        announcer.restoreProgressed(event);
      };
      const { result, undoTimeline } = await runRestore(checkpoint.dir, checkpoint.id, () =>
        runWholeRestore(wholeContext, { checkpoint, scope, fingerprint, allowSecrets, actor, report }),
      );
      // The number that undoes it, as the timeline shows it now: the CLI prints it without another call.
      const undoNumber = await numberInTimeline(engine, undoTimeline, result.preRollback.id);
      return undoNumber === undefined ? result : { ...result, undoNumber };
    },
  };
}
