import { mkdir } from 'node:fs/promises';
import type {
  AdoptionPlan,
  MemoryChange,
  MemoryDirectoryInfo,
  MemoryFileView,
  MemoryMutation,
  MemoryMutationResult,
  MemoryTarget,
} from '../../shared/contract/memory-contract';
import type { Attribution, RestoreGuard } from '../checkpoints';
import type { Disposer } from '../lib';
import { isDirectory } from '../files';
import type { Logger } from '../logging';
import { decideKeepAppended } from './memory-appended';
import { MemoryCaptureQueue, reportedVersions } from './memory-capture';
import { LateWriteWatch } from './memory-late-writes';
import type { MemoryCheckpointer } from './memory-checkpointer';
import type { ResolvedMemoryDirectory } from './memory-config';
import { contractFieldNamer, decideAdoption, decideMutation, type FieldNamer } from './memory-decisions';
import type { MemoryFileState } from './memory-file-state';
import { memoryFileNames } from './memory-format';
import type { GuardedChange, GuardedChangeDependencies } from './guarded-change';
import { runGuardedChange } from './memory-mutation';
import { createMemoryRestoreGuard, type GuardedMemoryFile } from './memory-restore-guard';
import { watchManagedDirectory, type MemoryWatchSettings } from './memory-directory-watch';
import { ManagedMemoryFiles } from './managed-memory-files';
import { proposeAdoptionOf, readView } from './memory-views';
import { newWriterId } from './memory-write-record';

/** What the composition root passes to the memory service. */
export interface MemoryServiceOptions {
  readonly directories: readonly ResolvedMemoryDirectory[];
  readonly logger: Logger;
  /** Memory directories are checkpointed directories; omitted, no checkpoints are taken. */
  readonly checkpoints?: MemoryCheckpointer;
  /** Watch the directories for external edits (the app, `vigil serve`, `vigil memory watch`). */
  readonly watch?: false | MemoryWatchSettings;
  /** How long a mutation waits for another writer's lock (default 10 s). */
  readonly lockTimeoutMs?: number;
  /** A background problem no call result carries (a failed checkpoint, a raced write). */
  readonly onProblem?: (message: string) => void;
  /** Runs inside each write between the writer's last check and its rename: a seam for tests standing in for another program then. */
  readonly afterWriteCheck?: () => Promise<void>;
}

/** Options of one mutation. */
export interface MutateOptions {
  readonly attribution?: Attribution;
  /** How error messages name the request's fields (the agent tool spells them `old_text`). */
  readonly fieldOf?: FieldNamer;
}

/** The memory store: guarded reads and mutations of every managed directory, and their live changes. */
export interface MemoryService {
  directories(): Promise<MemoryDirectoryInfo[]>;
  read(dir: string, target: MemoryTarget): Promise<MemoryFileView>;
  mutate(
    dir: string,
    target: MemoryTarget,
    mutation: MemoryMutation,
    options?: MutateOptions,
  ): Promise<MemoryMutationResult>;
  proposeAdoption(dir: string, target: MemoryTarget): Promise<AdoptionPlan>;
  adopt(
    dir: string,
    target: MemoryTarget,
    basis: string | null,
    entries: readonly string[],
    attribution?: Attribution,
  ): Promise<MemoryMutationResult>;
  /** Keeps text appended outside Vigil to the last entry (`original` + text) as an entry of its own, if the file is still `basis`. */
  keepAppended(
    dir: string,
    target: MemoryTarget,
    basis: string,
    entry: string,
    original: string,
    attribution?: Attribution,
  ): Promise<MemoryMutationResult>;
  /** Every change of every managed file, Vigil's and external. */
  onChange(listener: (change: MemoryChange) => void): Disposer<void>;
  /** The checkpoint restore service's guard: a restore of a memory folder takes the memory locks and is reported as Vigil's. */
  readonly guardRestore: RestoreGuard;
  /** Resolves when the background checkpoints of external edits are done. */
  settled(): Promise<void>;
  dispose(): Promise<void>;
}

/** Tells every listener of a change; a listener that throws is logged and the others still hear it. */
function broadcastTo(
  listeners: ReadonlySet<(change: MemoryChange) => void>,
  logger: Logger,
): (change: MemoryChange) => void {
  return (change) => {
    for (const listener of listeners) {
      try {
        listener(change);
      } catch (error) {
        logger.error('a memory change listener failed', { error });
      }
    }
  };
}

/**
 * Creates Vigil's own memory folders and reads every file's baseline. A watching service reports
 * later versions against these baselines, so they go on the timeline too.
 */
async function readBaselines(
  directories: readonly ResolvedMemoryDirectory[],
  files: ManagedMemoryFiles,
  captures: MemoryCaptureQueue,
  logger: Logger,
  isWatching: boolean,
): Promise<void> {
  for (const directory of directories) {
    if (directory.source !== 'hermes') await mkdir(directory.path, { recursive: true, mode: 0o700 });
    const baselines = [];
    for (const state of files.in(directory.path)) {
      const baseline = await state
        .run(() => files.refresh(state, 0))
        .catch((error: unknown) => logger.warn('could not read a memory file', { file: state.file, error }));
      if (baseline !== undefined) baselines.push(...reportedVersions(state.file, baseline));
    }
    if (isWatching && baselines.length > 0) captures.schedule(directory.path, 'memory at start-up', baselines);
  }
}

/** Starts a watcher per directory; each one adds its directory to `watched` once it watches. */
async function watchDirectories(
  directories: readonly ResolvedMemoryDirectory[],
  files: ManagedMemoryFiles,
  settings: MemoryWatchSettings,
  context: {
    readonly logger: Logger;
    readonly reportProblem: (message: string) => void;
    readonly watched: Set<string>;
  },
): Promise<Disposer[]> {
  const disposers: Disposer[] = [];
  for (const directory of directories) {
    disposers.push(
      await watchManagedDirectory({
        directory,
        states: files.in(directory.path),
        settings,
        logger: context.logger,
        reportProblem: context.reportProblem,
        refresh: (state, notifications) => files.refresh(state, notifications),
        recheck: (state) => files.recheck(state),
        onWatched: () => context.watched.add(directory.path),
      }),
    );
  }
  return disposers;
}

/** The managed directories as the contract lists them: an optional one that does not exist yet is left out. */
async function listDirectories(
  directories: readonly ResolvedMemoryDirectory[],
  watched: ReadonlySet<string>,
): Promise<MemoryDirectoryInfo[]> {
  const listed = await Promise.all(
    directories.map(async ({ isOptional, ...directory }) => {
      const exists = await isDirectory(directory.path);
      return isOptional === true && !exists
        ? []
        : [{ ...directory, limits: { ...directory.limits }, exists, isWatched: watched.has(directory.path) }];
    }),
  );
  return listed.flat();
}

/** The restore guard of the managed folders: the memory locks, and each file's queue, around a restore. */
function restoreGuardOf(options: MemoryServiceOptions, writer: string, files: ManagedMemoryFiles): RestoreGuard {
  return createMemoryRestoreGuard({
    directories: () => options.directories,
    writer,
    logger: options.logger,
    lockTimeoutMs: options.lockTimeoutMs,
    // In each file's queue, so no watcher read or mutation of it runs in the middle of a restore.
    queue: <T>(guarded: readonly GuardedMemoryFile[], work: () => Promise<T>): Promise<T> => {
      let run = work;
      for (const state of guarded.flatMap(({ file }) => files.byFile(file) ?? []).reverse()) {
        const inner = run;
        run = () => state.run(inner);
      }
      return run();
    },
    onRestored: ({ file, snapshot }) => files.byFile(file)?.observe(snapshot, { source: 'restore', notifications: 0 }),
  });
}

/** The service's writes, each a guarded change of one file: a mutation, an adoption, keeping appended text. */
function guardedWrites(
  files: ManagedMemoryFiles,
  deps: GuardedChangeDependencies,
): Pick<MemoryService, 'mutate' | 'adopt' | 'keepAppended'> {
  const change = async (dir: string, target: MemoryTarget, guarded: (state: MemoryFileState) => GuardedChange) => {
    const state = await files.stateOf(dir, target);
    return runGuardedChange(state, guarded(state), deps);
  };
  return {
    mutate: (dir, target, mutation, mutateOptions = {}) =>
      change(dir, target, (state) => ({
        purpose: `memory: ${mutation.action}`,
        attribution: mutateOptions.attribution,
        // Hermes's add skips its drift rule (an append takes nothing out); every other change refuses drift.
        driftPolicy: mutation.action === 'add' ? 'append' : 'refuse',
        backupWhole: false,
        decide: decideMutation(
          mutation,
          memoryFileNames[target],
          state.limit,
          mutateOptions.fieldOf ?? contractFieldNamer(mutation),
        ),
      })),

    adopt: (dir, target, basis, entries, attribution) =>
      change(dir, target, (state) => ({
        purpose: 'memory: adopt',
        attribution,
        driftPolicy: 'rewrite',
        backupWhole: true,
        decide: decideAdoption(basis, entries, memoryFileNames[target], state.limit),
      })),

    keepAppended: (dir, target, basis, entry, original, attribution) =>
      change(dir, target, () => ({
        purpose: 'memory: keep appended text',
        attribution,
        driftPolicy: 'refuse',
        backupWhole: false,
        decide: decideKeepAppended(basis, entry, original, memoryFileNames[target]),
      })),
  };
}

/** Builds the memory service: creates Vigil's own memory folder, reads every file's baseline, starts the watchers. */
export async function createMemoryService(options: MemoryServiceOptions): Promise<MemoryService> {
  const { logger } = options;
  const listeners = new Set<(change: MemoryChange) => void>();
  const reportProblem = (message: string): void => options.onProblem?.(message);
  const captures = new MemoryCaptureQueue(options.checkpoints, logger, reportProblem);
  const lateWrites = new LateWriteWatch({ logger, reportProblem });
  const writer = newWriterId();
  const deps: GuardedChangeDependencies = {
    logger,
    writer,
    checkpoints: options.checkpoints,
    captures,
    lateWrites,
    reportProblem,
    lockTimeoutMs: options.lockTimeoutMs,
    afterWriteCheck: options.afterWriteCheck,
  };
  const files = new ManagedMemoryFiles(options.directories, captures, broadcastTo(listeners, logger), writer);
  const watch = options.watch === undefined || options.watch === false ? undefined : options.watch;
  await readBaselines(options.directories, files, captures, logger, watch !== undefined);
  const watched = new Set<string>();
  const disposers =
    watch === undefined
      ? []
      : await watchDirectories(options.directories, files, watch, { logger, reportProblem, watched });
  return {
    directories: () => listDirectories(options.directories, watched),

    read: async (dir, target) => readView(files, await files.stateOf(dir, target), target),

    proposeAdoption: async (dir, target) => proposeAdoptionOf(files, await files.stateOf(dir, target), target),

    ...guardedWrites(files, deps),

    guardRestore: restoreGuardOf(options, writer, files),

    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    settled: () => captures.idleAll(),

    async dispose() {
      for (const dispose of disposers.reverse()) await dispose();
      disposers.length = 0;
      await lateWrites.idle();
      await captures.idleAll();
      listeners.clear();
    },
  };
}
