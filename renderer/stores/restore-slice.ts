import type { StateCreator } from 'zustand';
import type { CallRequest, CallResponse, EventPayload } from '../../shared/contract';
import type { LinePlan } from '../../shared/contract/checkpoints-history-contract';
import type { AppErrorData } from '../../shared/errors';
import type { VigilClient } from '../api/vigil-client';
import { linesToRestore } from '../model/lines-to-restore';
import type { RestoreResult } from '../model/restore-plan';
import { selectedInOrder } from '../model/selection-model';
import type { AppState } from './app-store';
import { applyRestore, planLines, planPaths, planUndoOfRestorePoint } from './restore-steps';
import type { SliceContext } from './slice-context';

/** A restore plan, as the contract carries it. */
export type RestorePlan = CallResponse<'checkpoints:plan-restore'>;

/** Lines of one file to restore: the rows picked against the live file (on version `basis`), or ranges of the checkpoint's version. */
export interface LineChoice {
  readonly path: string;
  readonly lines: CallRequest<'checkpoints:plan-restore-lines'>['lines'];
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

/** The restore slice, bound to a client. */
export function createRestoreSlice(client: VigilClient): StateCreator<AppState, [], [], RestoreSlice> {
  return (set, get) => {
    const context: SliceContext = { client, set, get };
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
        await planPaths(context, detail.dir, detail.checkpointId, paths, undefined);
      },

      planRestoreOf: (dir, checkpointId, paths) => planPaths(context, dir, checkpointId, paths, undefined),

      planRestoreLines: async () => {
        const { detail, lineSelection, fileDiffs } = get();
        if (detail === undefined || lineSelection === undefined || lineSelection.keys.size === 0) return;
        const file = detail.files.find((item) => item.path === lineSelection.path);
        const choice = file === undefined ? undefined : linesToRestore(detail.compare, file, fileDiffs, lineSelection);
        if (choice !== undefined) await planLines(context, detail.dir, detail.checkpointId, choice);
        else
          get().notify({
            tone: 'warning',
            title: 'No line to restore',
            detail: `The picked lines are not in checkpoint ${detail.checkpointId.slice(0, 8)}'s version of ${lineSelection.path}: pick lines it has, or restore the whole file.`,
          });
      },

      planUndoRestore: (dir, preRollbackId, paths, undoOf) => planPaths(context, dir, preRollbackId, paths, undoOf),

      planUndoOfRestorePoint: (dir, preRollbackId, restoredId) =>
        planUndoOfRestorePoint(context, dir, preRollbackId, restoredId),

      applyRestore: () => applyRestore(context),

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
