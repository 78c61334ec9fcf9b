import type { StateCreator } from 'zustand';
import type {
  AdoptionPlan,
  AdoptionStrategy,
  MemoryChange,
  MemoryDirectoryInfo,
  MemoryFileView,
  MemoryTarget,
} from '../../shared/contract/memory-contract';
import type { AppErrorData } from '../../shared/errors';
import type { VigilClient } from '../api/vigil-client';
import { failed, idle, loading, ready, type LoadState } from '../model/load-state';
import {
  addChange,
  applyChange,
  backupFromDetails,
  memoryFileKey,
  memoryTargets,
  refusedBackup,
} from '../model/memory-files';
import type { AppState } from './app-store';
import { rejectExternalEdit } from './memory-reject-steps';
import type { SliceContext } from './slice-context';

/** One memory file as the store holds it. */
export interface MemoryFileState {
  readonly load: LoadState;
  readonly view: MemoryFileView | undefined;
}

/** Adopting a drifted file: proposals, the one chosen, then the write. */
export interface AdoptionFlow {
  readonly dir: string;
  readonly target: MemoryTarget;
  readonly phase: 'proposing' | 'choosing' | 'adopting';
  readonly plan: AdoptionPlan | undefined;
  readonly strategy: AdoptionStrategy | undefined;
  /** The entries to write: the chosen split, as the user edited, split and merged it. */
  readonly entries: readonly string[];
  readonly error: AppErrorData | undefined;
}

/** The agents' memory files, their live changes, and the adoption of drifted ones. */
export interface MemorySlice {
  readonly memoryDirectories: readonly MemoryDirectoryInfo[];
  readonly memoryLoad: LoadState;
  readonly memoryFiles: Readonly<Record<string, MemoryFileState>>;
  /** Newest first, across directories. */
  readonly memoryChanges: readonly MemoryChange[];
  /** The latest backup Vigil made of each file, when the UI learned of one. */
  readonly memoryBackups: Readonly<Record<string, string>>;
  readonly adoption: AdoptionFlow | undefined;
  readonly loadMemory: () => Promise<void>;
  readonly refreshMemoryFile: (dir: string, target: MemoryTarget) => Promise<void>;
  readonly receiveMemoryChange: (change: MemoryChange) => void;
  /** An agent's memory write was refused on drift: remember the backup it made, for the drift banner. */
  readonly receiveMemoryRefusal: (details: Readonly<Record<string, unknown>> | undefined) => void;
  readonly proposeAdoption: (dir: string, target: MemoryTarget) => Promise<void>;
  readonly chooseAdoptionStrategy: (strategy: AdoptionStrategy) => void;
  /** Edits the entries being adopted (one entry's text, a split, a merge, a removal). */
  readonly editAdoptionEntries: (edit: (entries: readonly string[]) => readonly string[]) => void;
  readonly adoptMemory: () => Promise<void>;
  /** Keeps the text appended outside Vigil to a file's last entry as an entry of its own. */
  readonly keepAppended: (dir: string, target: MemoryTarget) => Promise<void>;
  /** Rejects the last edit made outside Vigil: the entries from before it go back (with an undo). */
  readonly rejectExternalEdit: (dir: string, target: MemoryTarget) => Promise<void>;
  readonly cancelAdoption: () => void;
}

/** What the memory actions share: the store, the client, and the reads in flight. */
interface MemoryContext extends SliceContext {
  /** One read per file at a time; a change during a read asks for one more read after it (`true`). */
  readonly reading: Map<string, boolean>;
}

/** Updates one file's entry in the store. */
function setFile(context: MemoryContext, key: string, update: (current: MemoryFileState) => MemoryFileState): void {
  context.set((state) => ({
    memoryFiles: { ...state.memoryFiles, [key]: update(state.memoryFiles[key] ?? { load: idle, view: undefined }) },
  }));
}

/** Reads a file again; asked during a read, it reads once more after it. */
async function refresh(context: MemoryContext, dir: string, target: MemoryTarget): Promise<void> {
  const { reading } = context;
  const key = memoryFileKey(dir, target);
  if (reading.has(key)) {
    reading.set(key, true);
    return;
  }
  reading.set(key, false);
  setFile(context, key, (current) => ({ ...current, load: current.view === undefined ? loading : current.load }));
  try {
    for (;;) {
      const result = await context.client.call('memory:read', { dir, target });
      if (result.ok) setFile(context, key, () => ({ load: ready, view: result.value }));
      else setFile(context, key, (current) => ({ ...current, load: failed(result.error) }));
      if (reading.get(key) !== true) break;
      reading.set(key, false);
    }
  } finally {
    reading.delete(key);
  }
}

/** Lists the memory directories, then reads each one's two files. */
async function loadMemory(context: MemoryContext): Promise<void> {
  const { client, set, get } = context;
  set({ memoryLoad: get().memoryDirectories.length === 0 ? loading : get().memoryLoad });
  const result = await client.call('memory:directories', {});
  if (!result.ok) {
    set({ memoryLoad: failed(result.error) });
    return;
  }
  set({ memoryDirectories: result.value.directories, memoryLoad: ready });
  await Promise.all(
    result.value.directories.flatMap((directory) =>
      (['memory', 'user'] as const).map((target) => refresh(context, directory.path, target)),
    ),
  );
}

/** Asks the core how a drifted file could be split into entries, and picks the recommended split. */
async function proposeAdoption({ client, set, get }: MemoryContext, dir: string, target: MemoryTarget): Promise<void> {
  set({
    adoption: {
      dir,
      target,
      phase: 'proposing',
      plan: undefined,
      strategy: undefined,
      entries: [],
      error: undefined,
    },
  });
  const result = await client.call('memory:propose-adoption', { dir, target });
  const flow = get().adoption;
  if (flow?.dir !== dir || flow.target !== target) return;
  if (!result.ok) {
    set({ adoption: { ...flow, phase: 'choosing', error: result.error } });
    return;
  }
  const strategy = result.value.recommended ?? result.value.proposals[0]?.strategy;
  const entries = result.value.proposals.find((proposal) => proposal.strategy === strategy)?.entries ?? [];
  set({ adoption: { ...flow, phase: 'choosing', plan: result.value, strategy, entries } });
}

/** Writes the entries chosen for a drifted file, keeping the backup the core made. */
async function adoptMemory(context: MemoryContext): Promise<void> {
  const { client, set, get } = context;
  const flow = get().adoption;
  if (flow?.plan === undefined || flow.phase !== 'choosing') return;
  set({ adoption: { ...flow, phase: 'adopting', error: undefined } });
  // Empty entries are dropped (the core refuses them); everything else goes as the user left it.
  const entries = flow.entries.filter((entry) => entry.trim() !== '');
  const result = await client.call('memory:adopt', {
    dir: flow.dir,
    target: flow.target,
    basis: flow.plan.basis,
    entries,
  });
  const key = memoryFileKey(flow.dir, flow.target);
  if (!result.ok) {
    const backup = backupFromDetails(result.error.details);
    set((state) => ({
      adoption: { ...flow, phase: 'choosing', error: result.error },
      memoryBackups: backup === undefined ? state.memoryBackups : { ...state.memoryBackups, [key]: backup },
    }));
    return;
  }
  const backup = result.value.preserved.at(-1)?.backup;
  set((state) => ({
    adoption: undefined,
    memoryBackups: backup === undefined ? state.memoryBackups : { ...state.memoryBackups, [key]: backup },
  }));
  get().notify({
    tone: 'success',
    title: `${flow.plan.file} adopted: ${result.value.entries.length} entries`,
    detail: backup === undefined ? result.value.message : `The original is kept in ${backup}.`,
  });
  await refresh(context, flow.dir, flow.target);
}

/** Keeps the text appended outside Vigil to a file's last entry as an entry of its own. */
async function keepAppended(context: MemoryContext, dir: string, target: MemoryTarget): Promise<void> {
  const { client, get } = context;
  const view = get().memoryFiles[memoryFileKey(dir, target)]?.view;
  const appended = view?.appended ?? null;
  if (view === undefined || appended === null || view.sha256 === null) return;
  const result = await client.call('memory:keep-appended', {
    dir,
    target,
    basis: view.sha256,
    entry: appended.entry,
    original: appended.original,
  });
  if (result.ok)
    get().notify({
      tone: 'success',
      title: `${memoryTargets.find(([candidate]) => candidate === target)?.[1] ?? ''}: ${result.value.message}`,
    });
  else get().notify({ tone: 'warning', title: 'The appended text was not kept', detail: result.error.message });
  await refresh(context, dir, target);
}

/** The memory slice, bound to a client. */
export function createMemorySlice(client: VigilClient): StateCreator<AppState, [], [], MemorySlice> {
  return (set, get) => {
    const context: MemoryContext = { client, set, get, reading: new Map() };
    return {
      memoryDirectories: [],
      memoryLoad: idle,
      memoryFiles: {},
      memoryChanges: [],
      memoryBackups: {},
      adoption: undefined,

      loadMemory: () => loadMemory(context),

      refreshMemoryFile: (dir, target) => refresh(context, dir, target),

      receiveMemoryChange: (change) => {
        const key = memoryFileKey(change.dir, change.target);
        set((state) => {
          const current = state.memoryFiles[key];
          return {
            memoryChanges: addChange(state.memoryChanges, change),
            memoryFiles:
              current?.view === undefined
                ? state.memoryFiles
                : { ...state.memoryFiles, [key]: { ...current, view: applyChange(current.view, change) } },
          };
        });
        // The change carries entries, usage and drift; the read brings the text of a drifted file.
        void refresh(context, change.dir, change.target);
      },

      receiveMemoryRefusal: (details) => {
        const found = refusedBackup(details, get().memoryDirectories);
        if (found !== undefined)
          set((state) => ({ memoryBackups: { ...state.memoryBackups, [found.key]: found.backup } }));
      },

      proposeAdoption: (dir, target) => proposeAdoption(context, dir, target),

      chooseAdoptionStrategy: (strategy) => {
        const flow = get().adoption;
        const entries = flow?.plan?.proposals.find((proposal) => proposal.strategy === strategy)?.entries;
        if (flow !== undefined && flow.phase === 'choosing' && entries !== undefined)
          set({ adoption: { ...flow, strategy, entries, error: undefined } });
      },

      editAdoptionEntries: (edit) => {
        const flow = get().adoption;
        if (flow !== undefined && flow.phase === 'choosing')
          set({ adoption: { ...flow, entries: edit(flow.entries), error: undefined } });
      },

      adoptMemory: () => adoptMemory(context),

      keepAppended: (dir, target) => keepAppended(context, dir, target),

      rejectExternalEdit: (dir, target) => rejectExternalEdit(context, dir, target),

      cancelAdoption: () => {
        if (get().adoption?.phase !== 'adopting') set({ adoption: undefined });
      },
    };
  };
}
