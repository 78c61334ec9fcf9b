import type { StateCreator } from 'zustand';
import type { CallResponse, EventPayload } from '../../shared/contract';
import type { AppErrorData } from '../../shared/errors';
import type { Result } from '../../shared/result';
import type { VigilClient } from '../api/vigil-client';
import { baseName, shortId } from '../model/format';
import { failed, idle, loading, ready, type LoadState } from '../model/load-state';
import { changedPaths, describeRestore, restoreHeadline, type RestoreResult } from '../model/restore-plan';
import { emptySelection, retainKeys, selectedInOrder, type SelectionState } from '../model/selection-model';
import type { AppState } from './app-store';

/** A changed file of a diff, as the contract carries it. */
export type DiffFile = CallResponse<'checkpoints:diff'>['files'][number];
/** One file's diff, as the contract carries it. */
export type FileDiff = CallResponse<'checkpoints:file-diff'>;
/** A restore plan, as the contract carries it. */
export type RestorePlan = CallResponse<'checkpoints:plan-restore'>;

/** What the opened checkpoint is compared with: the directory now, or another checkpoint (older or newer). */
export type CompareTarget = { readonly kind: 'live' } | { readonly kind: 'checkpoint'; readonly id: string; readonly isOlder: boolean };

/** The most changed files a detail view loads. */
const maxFiles = 20_000;
const filePage = 2_000;

/** The checkpoint that is open: its changed files against the compare target. */
export interface CheckpointDetail {
  readonly dir: string;
  readonly checkpointId: string;
  readonly compare: CompareTarget;
  readonly load: LoadState;
  readonly files: readonly DiffFile[];
  readonly totalFiles: number;
}

/** The diff of the file under the cursor. */
export interface FileDiffState {
  readonly path: string;
  readonly load: LoadState;
  readonly diff: FileDiff | undefined;
}

/** A restore from plan to outcome; `undoOf` marks the undo of an earlier restore. */
export interface RestoreFlow {
  readonly dir: string;
  readonly checkpointId: string;
  readonly paths: readonly string[];
  readonly undoOf: string | undefined;
  readonly phase: 'planning' | 'confirming' | 'applying';
  readonly plan: RestorePlan | undefined;
  readonly progress: EventPayload<'checkpoints:restore-progressed'> | undefined;
  readonly error: AppErrorData | undefined;
  /** The user ticked "also write the secrets files" (`.env*` only another program's store holds). */
  readonly allowSecrets: boolean;
}

/** The last restore that finished, shown with its outcome and its undo. */
export interface RestoreRecord {
  readonly dir: string;
  readonly checkpointId: string;
  readonly result: RestoreResult;
  readonly wasUndo: boolean;
}

/** A checkpoint's diff, the changed-file selection, and restore: plan, apply, undo. */
export interface CheckpointSlice {
  readonly detail: CheckpointDetail | undefined;
  readonly fileSelection: SelectionState;
  readonly fileDiff: FileDiffState | undefined;
  readonly restore: RestoreFlow | undefined;
  readonly lastRestore: RestoreRecord | undefined;
  readonly openCheckpoint: (dir: string, checkpointId: string) => Promise<void>;
  readonly closeCheckpoint: () => void;
  readonly compareWith: (target: CompareTarget) => Promise<void>;
  readonly refreshDetail: () => Promise<void>;
  readonly changeFileSelection: (selection: SelectionState) => void;
  readonly showFileDiff: (path: string) => Promise<void>;
  /** Plans restoring the open checkpoint: every file, or the selected ones. Nothing changes until `applyRestore`. */
  readonly planRestore: (scope: 'all' | 'selected') => Promise<void>;
  /** Plans undoing a restore: its restore point, for the paths it changed (or all, from the timeline). */
  readonly planUndoRestore: (dir: string, preRollbackId: string, paths: readonly string[], undoOf: string) => Promise<void>;
  /**
   * Plans undoing a restore from its restore point on the timeline: only the paths that restore
   * changed (the difference between the restored checkpoint and the restore point), so later work
   * in other files is left alone.
   */
  readonly planUndoOfRestorePoint: (dir: string, preRollbackId: string, restoredId: string | undefined) => Promise<void>;
  readonly applyRestore: () => Promise<void>;
  readonly dismissLastRestore: () => void;
  /** Ticks or unticks "also write the secrets files" in the restore being confirmed. */
  readonly allowRestoreSecrets: (isAllowed: boolean) => void;
  readonly cancelRestore: () => void;
  readonly receiveRestoreProgress: (progress: EventPayload<'checkpoints:restore-progressed'>) => void;
}

function diffSides(detail: Pick<CheckpointDetail, 'checkpointId' | 'compare'>): { checkpoint: string; against: { kind: 'live' } | { kind: 'checkpoint'; id: string } } {
  const { compare } = detail;
  if (compare.kind === 'live') return { checkpoint: detail.checkpointId, against: { kind: 'live' } };
  return compare.isOlder
    ? { checkpoint: compare.id, against: { kind: 'checkpoint', id: detail.checkpointId } }
    : { checkpoint: detail.checkpointId, against: { kind: 'checkpoint', id: compare.id } };
}

/** Whether a restore's outcome banner is on screen: the detail of a checkpoint of `dir` is open on the timeline. */
function isOutcomeShown(state: AppState, dir: string): boolean {
  return state.route.screen === 'timeline' && state.route.dir === dir && state.route.checkpointId !== undefined && state.detail?.dir === dir;
}

/** Whether `dir` is the folder in view, or no folder is (another screen): a toast about another folder's restore would mislead. */
function isFolderInView(state: AppState, dir: string): boolean {
  return state.route.screen !== 'timeline' || state.route.dir === undefined || state.route.dir === dir;
}

/** The checkpoint slice, bound to a client. */
export function createCheckpointSlice(client: VigilClient): StateCreator<AppState, [], [], CheckpointSlice> {
  return (set, get) => {
    let detailGeneration = 0;
    let diffGeneration = 0;

    const loadFiles = async (): Promise<void> => {
      const detail = get().detail;
      if (detail === undefined) return;
      detailGeneration += 1;
      const generation = detailGeneration;
      set({ detail: { ...detail, load: loading } });
      const files: DiffFile[] = [];
      let offset: number | null = 0;
      let total = 0;
      while (offset !== null && files.length < maxFiles) {
        const result: Result<CallResponse<'checkpoints:diff'>> = await client.call('checkpoints:diff', { dir: detail.dir, ...diffSides(detail), offset, limit: filePage });
        if (generation !== detailGeneration) return;
        if (!result.ok) {
          // What was shown stays, marked failed (and stale): a comparison that could not be made is never "0 files differ".
          set({ detail: { ...detail, load: failed(result.error) } });
          return;
        }
        files.push(...result.value.files);
        total = result.value.totalFiles;
        offset = result.value.nextOffset;
      }
      const keys = files.map((file) => file.path);
      const selection = retainKeys(get().fileSelection, keys);
      set({ detail: { ...detail, load: ready, files, totalFiles: total }, fileSelection: selection });
      const shown = selection.cursorKey ?? keys[0];
      if (shown === undefined) set({ fileDiff: undefined });
      else await get().showFileDiff(shown);
    };

    const plan = async (dir: string, checkpointId: string, paths: readonly string[], undoOf: string | undefined): Promise<void> => {
      // Not connected: every action is off (the keyboard's R included), so no plan is started that could not be applied.
      if (get().connection.kind !== 'connected') return;
      set({ restore: { dir, checkpointId, paths, undoOf, phase: 'planning', plan: undefined, progress: undefined, error: undefined, allowSecrets: false } });
      const result = await client.call('checkpoints:plan-restore', { dir, checkpoint: checkpointId, paths: [...paths] });
      const flow = get().restore;
      if (flow?.dir !== dir || flow.checkpointId !== checkpointId || flow.phase !== 'planning') return;
      set({ restore: result.ok ? { ...flow, phase: 'confirming', plan: result.value } : { ...flow, phase: 'confirming', error: result.error } });
    };

    return {
      detail: undefined,
      fileSelection: emptySelection,
      fileDiff: undefined,
      restore: undefined,
      lastRestore: undefined,

      openCheckpoint: async (dir, checkpointId) => {
        const current = get().detail;
        if (current?.dir === dir && current.checkpointId === checkpointId) return;
        set({
          detail: { dir, checkpointId, compare: { kind: 'live' }, load: idle, files: [], totalFiles: 0 },
          fileSelection: emptySelection,
          fileDiff: undefined,
        });
        await loadFiles();
      },

      closeCheckpoint: () => {
        detailGeneration += 1;
        set({ detail: undefined, fileSelection: emptySelection, fileDiff: undefined });
      },

      compareWith: async (compare) => {
        const detail = get().detail;
        if (detail === undefined) return;
        set({ detail: { ...detail, compare, files: [], totalFiles: 0 }, fileDiff: undefined });
        await loadFiles();
      },

      refreshDetail: loadFiles,

      changeFileSelection: (selection) => {
        const before = get().fileSelection.cursorKey;
        set({ fileSelection: selection });
        if (selection.cursorKey !== undefined && selection.cursorKey !== before && selection.drag === undefined) void get().showFileDiff(selection.cursorKey);
      },

      showFileDiff: async (path) => {
        const detail = get().detail;
        if (detail === undefined) return;
        diffGeneration += 1;
        const generation = diffGeneration;
        set((state) => ({ fileDiff: { path, load: loading, diff: state.fileDiff?.path === path ? state.fileDiff.diff : undefined } }));
        const result = await client.call('checkpoints:file-diff', { dir: detail.dir, ...diffSides(detail), path });
        if (generation !== diffGeneration) return;
        set({ fileDiff: result.ok ? { path, load: ready, diff: result.value } : { path, load: failed(result.error), diff: undefined } });
      },

      planRestore: async (scope) => {
        const detail = get().detail;
        if (detail === undefined) return;
        const paths = scope === 'all' ? [] : selectedInOrder(get().fileSelection, detail.files.map((file) => file.path));
        if (scope === 'selected' && paths.length === 0) return;
        await plan(detail.dir, detail.checkpointId, paths, undefined);
      },

      planUndoRestore: (dir, preRollbackId, paths, undoOf) => plan(dir, preRollbackId, paths, undoOf),

      planUndoOfRestorePoint: async (dir, preRollbackId, restoredId) => {
        if (restoredId === undefined) {
          await plan(dir, preRollbackId, [], preRollbackId);
          return;
        }
        set({ restore: { dir, checkpointId: preRollbackId, paths: [], undoOf: restoredId, phase: 'planning', plan: undefined, progress: undefined, error: undefined, allowSecrets: false } });
        const paths: string[] = [];
        let offset: number | null = 0;
        while (offset !== null && paths.length < maxFiles) {
          const result: Result<CallResponse<'checkpoints:diff'>> = await client.call('checkpoints:diff', {
            dir,
            checkpoint: restoredId,
            against: { kind: 'checkpoint', id: preRollbackId },
            offset,
            limit: filePage,
          });
          if (get().restore?.checkpointId !== preRollbackId) return;
          if (!result.ok) {
            set({ restore: { dir, checkpointId: preRollbackId, paths: [], undoOf: restoredId, phase: 'confirming', plan: undefined, progress: undefined, error: result.error, allowSecrets: false } });
            return;
          }
          paths.push(...result.value.files.map((file) => file.path));
          offset = result.value.nextOffset;
        }
        if (paths.length === 0) {
          set({ restore: undefined });
          get().notify({ tone: 'info', title: 'Nothing to undo', detail: 'That restore changed no file: the directory already matched the checkpoint.' });
          return;
        }
        await plan(dir, preRollbackId, paths, restoredId);
      },

      applyRestore: async () => {
        const flow = get().restore;
        if (flow?.phase !== 'confirming' || flow.plan === undefined) return;
        set({ restore: { ...flow, phase: 'applying', error: undefined } });
        const result = await client.call('checkpoints:restore', { dir: flow.dir, checkpoint: flow.checkpointId, paths: [...flow.paths], fingerprint: flow.plan.fingerprint, allowSecrets: flow.allowSecrets });
        if (!result.ok) {
          set({ restore: { ...flow, phase: 'confirming', error: result.error } });
          // The directory moved since the plan: show the fresh plan, so what is confirmed is what happens.
          if (result.error.code === 'conflict') await plan(flow.dir, flow.checkpointId, flow.paths, flow.undoOf);
          return;
        }
        const record: RestoreRecord = { dir: flow.dir, checkpointId: flow.checkpointId, result: result.value, wasUndo: flow.undoOf !== undefined };
        set({ restore: undefined, lastRestore: record });
        if (get().detail?.dir === flow.dir) await loadFiles();
        // The outcome shows once: in the banner of the detail when it is open on this folder, else in a toast.
        if (isOutcomeShown(get(), flow.dir)) return;
        const undoPaths = changedPaths(result.value);
        const headline = restoreHeadline(result.value, record.wasUndo);
        get().notify({
          // Gone once a later restore or undo replaced it, its banner shows it, or another folder is open.
          appliesWhile: (state) => state.lastRestore === record && !isOutcomeShown(state, flow.dir) && isFolderInView(state, flow.dir),
          tone: result.value.status === 'incomplete' ? 'warning' : result.value.status === 'nothing-to-do' ? 'info' : 'success',
          title: result.value.status === 'complete' && !record.wasUndo ? `Restored to ${shortId(flow.checkpointId)}` : headline,
          detail: `${baseName(flow.dir)}: ${describeRestore(result.value)}`,
          ...(undoPaths.length === 0
            ? {}
            : {
                action: {
                  label: record.wasUndo ? 'Redo restore' : 'Undo restore',
                  testId: 'toast-undo-restore',
                  run: () => void get().planUndoRestore(flow.dir, result.value.preRollback.id, undoPaths, flow.checkpointId),
                },
              }),
        });
      },

      dismissLastRestore: () => set({ lastRestore: undefined }),

      allowRestoreSecrets: (isAllowed) => {
        const flow = get().restore;
        if (flow?.phase === 'confirming') set({ restore: { ...flow, allowSecrets: isAllowed } });
      },

      cancelRestore: () => {
        if (get().restore?.phase !== 'applying') set({ restore: undefined });
      },

      receiveRestoreProgress: (progress) => {
        const flow = get().restore;
        if (flow?.phase === 'applying' && flow.dir === progress.dir && progress.checkpoint.startsWith(flow.checkpointId)) set({ restore: { ...flow, progress } });
      },
    };
  };
}
