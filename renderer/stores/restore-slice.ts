import type { StateCreator } from 'zustand';
import type { CallResponse, EventPayload } from '../../shared/contract';
import type { LinePlan } from '../../shared/contract/checkpoints-history-contract';
import type { AppErrorData } from '../../shared/errors';
import type { Result } from '../../shared/result';
import type { VigilClient } from '../api/vigil-client';
import { baseName, shortId } from '../model/format';
import { toRowSelection, type LineRange } from '../model/line-selection';
import { changedPaths, describeRestore, restoreHeadline, type RestoreResult } from '../model/restore-plan';
import { selectedInOrder } from '../model/selection-model';
import type { AppState } from './app-store';

/** A restore plan, as the contract carries it. */
export type RestorePlan = CallResponse<'checkpoints:plan-restore'>;

/** Lines of one file to restore: the rows picked, and the version of the file they were picked on. */
export interface LineChoice {
  readonly path: string;
  readonly selection: { readonly old: readonly LineRange[]; readonly new: readonly LineRange[] };
  readonly basis: string | undefined;
}

/** A restore from plan to outcome; `undoOf` marks the undo of an earlier restore; `lines`, a restore of some lines of one file. */
export interface RestoreFlow {
  readonly dir: string;
  readonly checkpointId: string;
  readonly paths: readonly string[];
  readonly undoOf: string | undefined;
  readonly phase: 'planning' | 'confirming' | 'applying';
  readonly plan: RestorePlan | undefined;
  readonly lines?: LineChoice | undefined;
  readonly linePlan?: LinePlan | undefined;
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

/** Restore: plan (all files, some, one, some lines), apply, undo. */
export interface RestoreSlice {
  readonly restore: RestoreFlow | undefined;
  readonly lastRestore: RestoreRecord | undefined;
  /** Plans restoring the open checkpoint: every file, or the selected ones. Nothing changes until `applyRestore`. */
  readonly planRestore: (scope: 'all' | 'selected') => Promise<void>;
  /** Plans restoring checkpoint `checkpointId` of `dir` (whole, or only `paths`), from anywhere (a timeline row, a file's history). */
  readonly planRestoreOf: (dir: string, checkpointId: string, paths: readonly string[]) => Promise<void>;
  /** Plans restoring the lines picked in the open checkpoint's diff. */
  readonly planRestoreLines: () => Promise<void>;
  /** Plans undoing a restore: its restore point, for the paths it changed (or all, from the timeline). */
  readonly planUndoRestore: (
    dir: string,
    preRollbackId: string,
    paths: readonly string[],
    undoOf: string,
  ) => Promise<void>;
  /** Plans undoing a restore from its restore point on the timeline: only the paths that restore changed. */
  readonly planUndoOfRestorePoint: (
    dir: string,
    preRollbackId: string,
    restoredId: string | undefined,
  ) => Promise<void>;
  readonly applyRestore: () => Promise<void>;
  readonly dismissLastRestore: () => void;
  /** Ticks or unticks "also write the secrets files" in the restore being confirmed. */
  readonly allowRestoreSecrets: (isAllowed: boolean) => void;
  readonly cancelRestore: () => void;
  readonly receiveRestoreProgress: (progress: EventPayload<'checkpoints:restore-progressed'>) => void;
}

/** The most paths an undo is planned for. */
const maxFiles = 20_000;
const filePage = 2_000;

/** Whether a restore's outcome banner is on screen: the detail of a checkpoint of `dir` is open on the timeline. */
function isOutcomeShown(state: AppState, dir: string): boolean {
  return (
    state.route.screen === 'timeline' &&
    state.route.dir === dir &&
    state.route.checkpointId !== undefined &&
    state.detail?.dir === dir
  );
}

/** Whether `dir` is the folder in view, or no folder is (another screen): a toast about another folder's restore would mislead. */
function isFolderInView(state: AppState, dir: string): boolean {
  return state.route.screen !== 'timeline' || state.route.dir === undefined || state.route.dir === dir;
}

function startFlow(
  dir: string,
  checkpointId: string,
  paths: readonly string[],
  undoOf: string | undefined,
  lines?: LineChoice,
): RestoreFlow {
  return {
    dir,
    checkpointId,
    paths,
    undoOf,
    phase: 'planning',
    plan: undefined,
    lines,
    linePlan: undefined,
    progress: undefined,
    error: undefined,
    allowSecrets: false,
  };
}

/** The restore slice, bound to a client. */
export function createRestoreSlice(client: VigilClient): StateCreator<AppState, [], [], RestoreSlice> {
  return (set, get) => {
    const plan = async (
      dir: string,
      checkpointId: string,
      paths: readonly string[],
      undoOf: string | undefined,
    ): Promise<void> => {
      // Not connected: every action is off (the keyboard's R included), so no plan is started that could not be applied.
      if (get().connection.kind !== 'connected') return;
      set({ restore: startFlow(dir, checkpointId, paths, undoOf) });
      const result = await client.call('checkpoints:plan-restore', {
        dir,
        checkpoint: checkpointId,
        paths: [...paths],
      });
      const flow = get().restore;
      if (
        flow?.dir !== dir ||
        flow.checkpointId !== checkpointId ||
        flow.phase !== 'planning' ||
        flow.lines !== undefined
      )
        return;
      set({
        restore: result.ok
          ? { ...flow, phase: 'confirming', plan: result.value }
          : { ...flow, phase: 'confirming', error: result.error },
      });
    };

    const planLines = async (dir: string, checkpointId: string, lines: LineChoice): Promise<void> => {
      if (get().connection.kind !== 'connected') return;
      set({ restore: startFlow(dir, checkpointId, [lines.path], undefined, lines) });
      const result = await client.call('checkpoints:plan-restore-lines', {
        dir,
        checkpoint: checkpointId,
        path: lines.path,
        lines: { kind: 'rows', selection: { old: [...lines.selection.old], new: [...lines.selection.new] } },
        ...(lines.basis === undefined ? {} : { basis: lines.basis }),
      });
      const flow = get().restore;
      if (flow?.lines !== lines || flow.phase !== 'planning') return;
      set({
        restore: result.ok
          ? { ...flow, phase: 'confirming', linePlan: result.value }
          : { ...flow, phase: 'confirming', error: result.error },
      });
    };

    /** The outcome of a restore: shown once, in the banner of the open detail of its folder, else in a toast with its undo. */
    const finish = async (flow: RestoreFlow, result: RestoreResult): Promise<void> => {
      const record: RestoreRecord = {
        dir: flow.dir,
        checkpointId: flow.checkpointId,
        result,
        wasUndo: flow.undoOf !== undefined,
      };
      set({ restore: undefined, lastRestore: record, lineSelection: undefined });
      if (get().detail?.dir === flow.dir) await get().refreshDetail();
      if (isOutcomeShown(get(), flow.dir)) return;
      const undoPaths = changedPaths(result);
      const headline = restoreHeadline(result, record.wasUndo);
      get().notify({
        // Gone once a later restore or undo replaced it, its banner shows it, or another folder is open.
        appliesWhile: (state) =>
          state.lastRestore === record && !isOutcomeShown(state, flow.dir) && isFolderInView(state, flow.dir),
        tone: result.status === 'incomplete' ? 'warning' : result.status === 'nothing-to-do' ? 'info' : 'success',
        title: result.status === 'complete' && !record.wasUndo ? `Restored to ${shortId(flow.checkpointId)}` : headline,
        detail: `${baseName(flow.dir)}: ${describeRestore(result)}`,
        ...(undoPaths.length === 0
          ? {}
          : {
              action: {
                label: record.wasUndo ? 'Redo restore' : 'Undo restore',
                testId: 'toast-undo-restore',
                run: () => void get().planUndoRestore(flow.dir, result.preRollback.id, undoPaths, flow.checkpointId),
              },
            }),
      });
    };

    return {
      restore: undefined,
      lastRestore: undefined,

      planRestore: async (scope) => {
        const detail = get().detail;
        if (detail === undefined) return;
        const paths =
          scope === 'all'
            ? []
            : selectedInOrder(
                get().fileSelection,
                detail.files.map((file) => file.path),
              );
        if (scope === 'selected' && paths.length === 0) return;
        await plan(detail.dir, detail.checkpointId, paths, undefined);
      },

      planRestoreOf: (dir, checkpointId, paths) => plan(dir, checkpointId, paths, undefined),

      planRestoreLines: async () => {
        const { detail, lineSelection, fileDiffs } = get();
        if (
          detail === undefined ||
          lineSelection === undefined ||
          lineSelection.keys.size === 0 ||
          detail.compare.kind !== 'live'
        )
          return;
        const basis = fileDiffs.get(lineSelection.path)?.diff?.newOid;
        await planLines(detail.dir, detail.checkpointId, {
          path: lineSelection.path,
          selection: toRowSelection(lineSelection),
          basis,
        });
      },

      planUndoRestore: (dir, preRollbackId, paths, undoOf) => plan(dir, preRollbackId, paths, undoOf),

      planUndoOfRestorePoint: async (dir, preRollbackId, restoredId) => {
        if (restoredId === undefined) {
          await plan(dir, preRollbackId, [], preRollbackId);
          return;
        }
        set({ restore: startFlow(dir, preRollbackId, [], restoredId) });
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
            set({
              restore: { ...startFlow(dir, preRollbackId, [], restoredId), phase: 'confirming', error: result.error },
            });
            return;
          }
          paths.push(...result.value.files.map((file) => file.path));
          offset = result.value.nextOffset;
        }
        if (paths.length === 0) {
          set({ restore: undefined });
          get().notify({
            tone: 'info',
            title: 'Nothing to undo',
            detail: 'That restore changed no file: the directory already matched the checkpoint.',
          });
          return;
        }
        await plan(dir, preRollbackId, paths, restoredId);
      },

      applyRestore: async () => {
        const flow = get().restore;
        if (flow?.phase !== 'confirming') return;
        if (flow.lines !== undefined) {
          if (flow.linePlan === undefined) return;
          set({ restore: { ...flow, phase: 'applying', error: undefined } });
          const { lines } = flow;
          const result = await client.call('checkpoints:restore-lines', {
            dir: flow.dir,
            checkpoint: flow.checkpointId,
            path: lines.path,
            lines: { kind: 'rows', selection: { old: [...lines.selection.old], new: [...lines.selection.new] } },
            ...(lines.basis === undefined ? {} : { basis: lines.basis }),
            fingerprint: flow.linePlan.fingerprint,
          });
          if (!result.ok) set({ restore: { ...flow, phase: 'confirming', error: result.error } });
          else await finish(flow, result.value);
          return;
        }
        if (flow.plan === undefined) return;
        set({ restore: { ...flow, phase: 'applying', error: undefined } });
        const result = await client.call('checkpoints:restore', {
          dir: flow.dir,
          checkpoint: flow.checkpointId,
          paths: [...flow.paths],
          fingerprint: flow.plan.fingerprint,
          allowSecrets: flow.allowSecrets,
        });
        if (!result.ok) {
          set({ restore: { ...flow, phase: 'confirming', error: result.error } });
          // The directory moved since the plan: show the fresh plan, so what is confirmed is what happens.
          if (result.error.code === 'conflict') await plan(flow.dir, flow.checkpointId, flow.paths, flow.undoOf);
          return;
        }
        await finish(flow, result.value);
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
        if (
          flow?.phase === 'applying' &&
          flow.dir === progress.dir &&
          progress.checkpoint.startsWith(flow.checkpointId)
        )
          set({ restore: { ...flow, progress } });
      },
    };
  };
}
