import type { CallResponse } from '../../shared/contract';
import type { Result } from '../../shared/result';
import { baseName, shortId } from '../model/format';
import { changedPaths, describeRestore, restoreHeadline, type RestoreResult } from '../model/restore-plan';
import type { AppState } from './app-store';
import type { LineChoice, RestoreFlow, RestoreRecord } from './restore-slice';
import type { SliceContext } from './slice-context';

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

/** A restore flow at its start: planning. */
export function startFlow(
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

/** Plans restoring `paths` (all, if empty) of a checkpoint; the plan waits for confirmation. */
export async function planPaths(
  { client, set, get }: SliceContext,
  dir: string,
  checkpointId: string,
  paths: readonly string[],
  undoOf: string | undefined,
): Promise<void> {
  // Not connected: every action is off (the keyboard's R included), so no plan is started that could not be applied.
  if (get().connection.kind !== 'connected') return;
  set({ restore: startFlow(dir, checkpointId, paths, undoOf) });
  const result = await client.call('checkpoints:plan-restore', {
    dir,
    checkpoint: checkpointId,
    paths: [...paths],
  });
  const flow = get().restore;
  if (flow?.dir !== dir || flow.checkpointId !== checkpointId || flow.phase !== 'planning' || flow.lines !== undefined)
    return;
  set({
    restore: result.ok
      ? { ...flow, phase: 'confirming', plan: result.value }
      : { ...flow, phase: 'confirming', error: result.error },
  });
}

/** Plans restoring some lines of one file; the plan waits for confirmation. */
export async function planLines(
  { client, set, get }: SliceContext,
  dir: string,
  checkpointId: string,
  lines: LineChoice,
): Promise<void> {
  if (get().connection.kind !== 'connected') return;
  set({ restore: startFlow(dir, checkpointId, [lines.path], undefined, lines) });
  const result = await client.call('checkpoints:plan-restore-lines', {
    dir,
    checkpoint: checkpointId,
    path: lines.path,
    lines: lines.lines,
    basis: lines.basis,
  });
  const flow = get().restore;
  if (flow?.lines !== lines || flow.phase !== 'planning') return;
  set({
    restore: result.ok
      ? { ...flow, phase: 'confirming', linePlan: result.value }
      : { ...flow, phase: 'confirming', error: result.error },
  });
}

/** The outcome of a restore: shown once, in the banner of the open detail of its folder, else in a toast with its undo. */
async function finish({ set, get }: SliceContext, flow: RestoreFlow, result: RestoreResult): Promise<void> {
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
}

/** Plans undoing a restore from its restore point: only the paths that restore changed (every one if it is unknown). */
export async function planUndoOfRestorePoint(
  context: SliceContext,
  dir: string,
  preRollbackId: string,
  restoredId: string | undefined,
): Promise<void> {
  const { client, set, get } = context;
  if (restoredId === undefined) {
    await planPaths(context, dir, preRollbackId, [], preRollbackId);
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
  await planPaths(context, dir, preRollbackId, paths, restoredId);
}

/** Applies the confirmed restore of some lines of one file. */
async function applyLines(context: SliceContext, flow: RestoreFlow, lines: LineChoice): Promise<void> {
  const { client, set } = context;
  if (flow.linePlan === undefined) return;
  set({ restore: { ...flow, phase: 'applying', error: undefined } });
  const result = await client.call('checkpoints:restore-lines', {
    dir: flow.dir,
    checkpoint: flow.checkpointId,
    path: lines.path,
    lines: lines.lines,
    basis: lines.basis,
    fingerprint: flow.linePlan.fingerprint,
  });
  if (!result.ok) set({ restore: { ...flow, phase: 'confirming', error: result.error } });
  else await finish(context, flow, result.value);
}

/** Applies the confirmed restore of files; a directory that moved since the plan gets a fresh plan instead. */
async function applyPaths(context: SliceContext, flow: RestoreFlow): Promise<void> {
  const { client, set } = context;
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
    if (result.error.code === 'conflict')
      await planPaths(context, flow.dir, flow.checkpointId, flow.paths, flow.undoOf);
    return;
  }
  await finish(context, flow, result.value);
}

/** Applies the restore being confirmed, of lines or of files. */
export async function applyRestore(context: SliceContext): Promise<void> {
  const flow = context.get().restore;
  if (flow?.phase !== 'confirming') return;
  if (flow.lines !== undefined) await applyLines(context, flow, flow.lines);
  else await applyPaths(context, flow);
}
