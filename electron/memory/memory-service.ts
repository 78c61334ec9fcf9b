import { mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import type {
  AdoptionPlan,
  MemoryChange,
  MemoryDirectoryInfo,
  MemoryFileView,
  MemoryMutation,
  MemoryMutationResult,
  MemoryTarget,
} from '../../shared/contract/memory-contract';
import { AppError } from '../../shared/errors';
import type { Attribution, RestoreGuard } from '../checkpoints';
import type { Disposer } from '../lib/disposable';
import { isDirectory } from '../files/is-directory';
import type { Logger } from '../logging/logger';
import { proposeEntries, recommendProposal } from './memory-adoption';
import { decideKeepAppended, findAppendedText } from './memory-appended';
import { captureChange, MemoryCaptureQueue, reportedVersions } from './memory-capture';
import { LateWriteWatch } from './memory-late-writes';
import type { MemoryCheckpointer } from './memory-checkpointer';
import type { ResolvedMemoryDirectory } from './memory-config';
import { contractFieldNamer, decideAdoption, decideMutation, type FieldNamer } from './memory-decisions';
import { readMemoryFile, statIdentity, type MemoryFileSnapshot } from './memory-file';
import { MemoryFileState, parseSnapshot } from './memory-file-state';
import { memoryFileNames, memoryTargets } from './memory-format';
import { runGuardedChange, type GuardedChangeDependencies } from './memory-mutation';
import { createMemoryRestoreGuard, type GuardedMemoryFile } from './memory-restore-guard';
import { watchManagedDirectory, type MemoryWatchSettings } from './memory-directory-watch';
import { newWriterId, readWriteRecord } from './memory-write-record';

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

/** The most of a file's text a view carries. */
const maxViewChars = 64 * 1024;

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

function viewText(text: string): { text: string; isTextTruncated: boolean } {
  if (text.length <= maxViewChars) return { text, isTextTruncated: false };
  const cut =
    text.charCodeAt(maxViewChars - 1) >= 0xd800 && text.charCodeAt(maxViewChars - 1) <= 0xdbff
      ? maxViewChars - 1
      : maxViewChars;
  return { text: text.slice(0, cut), isTextTruncated: true };
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
    ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
    ...(options.afterWriteCheck === undefined ? {} : { afterWriteCheck: options.afterWriteCheck }),
  };
  const broadcast = (change: MemoryChange): void => {
    for (const listener of listeners) {
      try {
        listener(change);
      } catch (error) {
        logger.error('a memory change listener failed', { error });
      }
    }
  };
  const states = new Map<string, Map<MemoryTarget, MemoryFileState>>();
  for (const directory of options.directories) {
    states.set(
      directory.path,
      new Map(memoryTargets.map((target) => [target, new MemoryFileState(directory, target, broadcast, writer)])),
    );
  }
  const statesByFile = new Map(
    [...states.values()].flatMap((byTarget) => [...byTarget.values()].map((state) => [state.file, state] as const)),
  );
  const watched = new Set<string>();
  const disposers: Disposer[] = [];

  async function stateOf(dir: string, target: MemoryTarget): Promise<MemoryFileState> {
    const candidates = [path.resolve(dir), await realpath(path.resolve(dir)).catch(() => path.resolve(dir))];
    for (const directory of options.directories) {
      if (directory.id === dir || candidates.includes(directory.path)) {
        if (directory.isOptional === true && !(await isDirectory(directory.path))) {
          throw new AppError(
            'not_found',
            `${directory.path} does not exist yet; Vigil manages it from the moment Hermes Agent creates it (Vigil never creates Hermes's folders).`,
            { dir },
          );
        }
        const state = states.get(directory.path)?.get(target);
        if (state !== undefined) return state;
      }
    }
    const known = options.directories.map((directory) => directory.path).join(', ');
    throw new AppError(
      'not_found',
      `${dir} is not a memory directory Vigil manages (it manages: ${known || 'none'}). Add it to "memory.directories" in config.json.`,
      {
        dir,
      },
    );
  }

  /** Reads a file in its queue and reports the version if it is new; every version this service did not write is checkpointed. */
  async function refresh(state: MemoryFileState, notifications: number): Promise<MemoryFileSnapshot> {
    const snapshot = await readMemoryFile(state.file);
    const change = state.observe(snapshot, {
      source: 'detect',
      record: await readWriteRecord(state.file),
      notifications,
    });
    if (change !== undefined) captureChange(captures, change, snapshot);
    return snapshot;
  }

  /** A re-check: one stat, and a read only when the file is not the version last read. */
  async function recheck(state: MemoryFileState): Promise<void> {
    if (state.isStill(await statIdentity(state.file))) return;
    await refresh(state, 0);
  }

  const isWatching = options.watch !== undefined && options.watch !== false;
  for (const directory of options.directories) {
    if (directory.source !== 'hermes') await mkdir(directory.path, { recursive: true, mode: 0o700 });
    const baselines = [];
    for (const state of states.get(directory.path)?.values() ?? []) {
      const baseline = await state
        .run(() => refresh(state, 0))
        .catch((error: unknown) => logger.warn('could not read a memory file', { file: state.file, error }));
      if (baseline !== undefined) baselines.push(...reportedVersions(state.file, baseline));
    }
    // A watching service reports later versions against these baselines, so they go on the timeline too.
    if (isWatching && baselines.length > 0) captures.schedule(directory.path, 'memory at start-up', baselines);
  }

  if (options.watch !== undefined && options.watch !== false) {
    for (const directory of options.directories) {
      disposers.push(
        await watchManagedDirectory({
          directory,
          states: [...(states.get(directory.path)?.values() ?? [])],
          settings: options.watch,
          logger,
          reportProblem,
          refresh,
          recheck,
          onWatched: () => watched.add(directory.path),
        }),
      );
    }
  }

  return {
    async directories() {
      const listed = await Promise.all(
        options.directories.map(async ({ isOptional, ...directory }) => {
          const exists = await isDirectory(directory.path);
          return isOptional === true && !exists
            ? []
            : [{ ...directory, limits: { ...directory.limits }, exists, isWatched: watched.has(directory.path) }];
        }),
      );
      return listed.flat();
    },

    async read(dir, target) {
      const state = await stateOf(dir, target);
      const snapshot = await state.run(() => refresh(state, 0));
      const parsed = parseSnapshot(snapshot, state.limit);
      const record = await readWriteRecord(state.file);
      const seen = state.lastExternalChange;
      const previous = seen !== null && seen.current.sha256 === snapshot.sha256 ? seen.previous.entries : undefined;
      return {
        dir: state.directory.path,
        target,
        file: state.file,
        exists: snapshot.exists,
        sha256: snapshot.sha256,
        entries: parsed.version.entries,
        usage: parsed.usage,
        drift: parsed.drift,
        ...viewText(snapshot.text),
        lastExternalChange: state.lastExternalChange,
        appended: parsed.drift.isDrifted
          ? null
          : findAppendedText(parsed.version.entries, previous, new Set(record?.entries ?? [])),
      };
    },

    async mutate(dir, target, mutation, mutateOptions = {}) {
      const state = await stateOf(dir, target);
      const fieldOf = mutateOptions.fieldOf ?? contractFieldNamer(mutation);
      const decide = decideMutation(mutation, memoryFileNames[target], state.limit, fieldOf);
      return runGuardedChange(
        state,
        {
          purpose: `memory: ${mutation.action}`,
          ...(mutateOptions.attribution === undefined ? {} : { attribution: mutateOptions.attribution }),
          // Hermes's add skips its drift rule (an append takes nothing out); every other change refuses drift.
          driftPolicy: mutation.action === 'add' ? 'append' : 'refuse',
          backupWhole: false,
          decide,
        },
        deps,
      );
    },

    async proposeAdoption(dir, target) {
      const state = await stateOf(dir, target);
      const snapshot = await state.run(() => refresh(state, 0));
      const parsed = parseSnapshot(snapshot, state.limit);
      const proposals = proposeEntries(snapshot.text, state.limit);
      return {
        dir: state.directory.path,
        target,
        file: state.file,
        basis: snapshot.sha256,
        drift: parsed.drift,
        proposals,
        recommended: recommendProposal(proposals, snapshot.text),
      };
    },

    async adopt(dir, target, basis, entries, attribution) {
      const state = await stateOf(dir, target);
      return runGuardedChange(
        state,
        {
          purpose: 'memory: adopt',
          ...(attribution === undefined ? {} : { attribution }),
          driftPolicy: 'rewrite',
          backupWhole: true,
          decide: decideAdoption(basis, entries, memoryFileNames[target], state.limit),
        },
        deps,
      );
    },

    async keepAppended(dir, target, basis, entry, original, attribution) {
      const state = await stateOf(dir, target);
      return runGuardedChange(
        state,
        {
          purpose: 'memory: keep appended text',
          ...(attribution === undefined ? {} : { attribution }),
          driftPolicy: 'refuse',
          backupWhole: false,
          decide: decideKeepAppended(basis, entry, original, memoryFileNames[target]),
        },
        deps,
      );
    },

    guardRestore: createMemoryRestoreGuard({
      directories: () => options.directories,
      writer,
      logger,
      ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
      // In each file's queue, so no watcher read or mutation of it runs in the middle of a restore.
      queue: <T>(files: readonly GuardedMemoryFile[], work: () => Promise<T>): Promise<T> => {
        let run = work;
        for (const state of files.flatMap(({ file }) => statesByFile.get(file) ?? []).reverse()) {
          const inner = run;
          run = () => state.run(inner);
        }
        return run();
      },
      onRestored: ({ file, snapshot }) =>
        statesByFile.get(file)?.observe(snapshot, { source: 'restore', notifications: 0 }),
    }),

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
