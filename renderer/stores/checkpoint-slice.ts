import type { StateCreator } from 'zustand';
import type { CallResponse } from '../../shared/contract';
import type { VigilClient } from '../api/vigil-client';
import type { LineSelection } from '../model/line-selection';
import { failed, idle, loading, ready, type LoadState } from '../model/load-state';
import { emptySelection, retainKeys, type SelectionState } from '../model/selection-model';
import type { AppState } from './app-store';
import { diffSides, fetchChangedFiles, inTreeOrder, withBatchLoaded } from './checkpoint-diff-calls';
import type { SliceContext } from './slice-context';

/** A changed file of a diff, as the contract carries it. */
export type DiffFile = CallResponse<'checkpoints:diff'>['files'][number];
/** One file's diff, as the contract carries it. */
export type FileDiff = CallResponse<'checkpoints:file-diff'>;

/** What the opened checkpoint is compared with: the directory now, or another checkpoint (older or newer). */
export type CompareTarget =
  { readonly kind: 'live' } | { readonly kind: 'checkpoint'; readonly id: string; readonly isOlder: boolean };

/** One file's hunks: loading, loaded, or failed. */
export interface FileDiffState {
  readonly load: LoadState;
  readonly diff: FileDiff | undefined;
}

/** How the diffs of a comparison are shown: the file under the cursor, or every file stacked like a pull request. */
export type DiffMode = 'file' | 'all';

/** Files whose hunks one call brings. */
const diffBatch = 20;

/** The checkpoint that is open: its changed files against the compare target. */
export interface CheckpointDetail {
  readonly dir: string;
  readonly checkpointId: string;
  readonly compare: CompareTarget;
  readonly load: LoadState;
  /** The changed files, in the order the file tree shows them. */
  readonly files: readonly DiffFile[];
  readonly totalFiles: number;
}

/** A checkpoint's diff: the changed files, the selection for restore, the hunks shown, and lines picked in them. */
export interface CheckpointSlice {
  readonly detail: CheckpointDetail | undefined;
  readonly fileSelection: SelectionState;
  /** The file whose diff is shown (the cursor of the file list). */
  readonly focusedFile: string | undefined;
  /** The hunks loaded so far, by path, for the current comparison. */
  readonly fileDiffs: ReadonlyMap<string, FileDiffState>;
  readonly diffMode: DiffMode;
  /** Lines picked in one file's diff for "Restore these lines". */
  readonly lineSelection: LineSelection | undefined;
  readonly openCheckpoint: (
    dir: string,
    checkpointId: string,
    options?: { readonly compare?: CompareTarget; readonly focus?: string },
  ) => Promise<void>;
  readonly closeCheckpoint: () => void;
  readonly compareWith: (target: CompareTarget) => Promise<void>;
  readonly refreshDetail: () => Promise<void>;
  readonly changeFileSelection: (selection: SelectionState) => void;
  /** Shows a file's diff (one click on it): the cursor moves there; the selection for restore stays. */
  readonly showFileDiff: (path: string) => Promise<void>;
  /** Loads the hunks of these files (those not loaded yet), a batch per call. */
  readonly loadFileDiffs: (paths: readonly string[]) => Promise<void>;
  readonly setDiffMode: (mode: DiffMode) => void;
  readonly changeLineSelection: (selection: LineSelection | undefined) => void;
}

/** What the slice's actions share: the store, the client, and which comparison is current. */
interface DetailContext extends SliceContext {
  /** Bumped whenever the comparison changes: a load of an older one drops its results. */
  generation: number;
  /** The files whose hunks are being fetched, each with the load that brings them. */
  readonly pending: Map<string, Promise<void>>;
}

/**
 * After a refresh, lines the person picked stay picked while their file's diff is the one they
 * were picked on (same versions on both sides): a live comparison that recomputes because
 * another file changed must not drop them. Otherwise the pick goes.
 */
async function keepLinesIfUnchanged(
  context: DetailContext,
  kept: LineSelection,
  before: FileDiff | undefined,
  generation: number,
): Promise<void> {
  const { get, set } = context;
  const isListed = get().detail?.files.some((file) => file.path === kept.path) === true;
  if (isListed && before !== undefined) {
    if (get().fileDiffs.get(kept.path)?.load.kind !== 'ready') await get().loadFileDiffs([kept.path]);
    if (generation !== context.generation) return;
    const state = get().fileDiffs.get(kept.path);
    const after = state?.load.kind === 'ready' ? state.diff : undefined;
    if (after !== undefined && after.oldOid === before.oldOid && after.newOid === before.newOid) return;
  }
  if (get().lineSelection === kept) set({ lineSelection: undefined });
}

/** The hunks shown, each marked to be loaded again (`idle`) and still shown meanwhile. */
function toLoadAgain(fileDiffs: ReadonlyMap<string, FileDiffState>): Map<string, FileDiffState> {
  const kept = [...fileDiffs].filter(([, state]) => state.diff !== undefined);
  return new Map(kept.map(([path, state]) => [path, { load: idle, diff: state.diff }]));
}

/** (Re)loads the open comparison's changed files, then shows the focused file's diff. */
async function loadFiles(context: DetailContext, focus?: string, { keepLines = false } = {}): Promise<void> {
  const { get, set } = context;
  const detail = get().detail;
  if (detail === undefined) return;
  context.generation += 1;
  const generation = context.generation;
  context.pending.clear();
  const kept = keepLines ? get().lineSelection : undefined;
  const keptDiff = kept === undefined ? undefined : get().fileDiffs.get(kept.path)?.diff;
  // A refresh leaves the hunks on screen until new ones replace them (each is loaded again as it is
  // shown): rows that vanished for a moment would throw the view back to the top and lose a drag's moves.
  const fileDiffs = keepLines ? toLoadAgain(get().fileDiffs) : new Map<string, FileDiffState>();
  set({ detail: { ...detail, load: loading }, fileDiffs, lineSelection: kept });
  const fetched = await fetchChangedFiles(context.client, detail, () => generation === context.generation);
  if (fetched.kind === 'stale') return;
  if (fetched.kind === 'failed') {
    // What was shown stays, marked failed (and stale): a comparison that could not be made is never "0 files differ".
    set({ detail: { ...detail, load: failed(fetched.error) } });
    return;
  }
  const ordered = inTreeOrder(fetched.files);
  const keys = ordered.map((file) => file.path);
  const selection = retainKeys(get().fileSelection, keys);
  set({ detail: { ...detail, load: ready, files: ordered, totalFiles: fetched.total }, fileSelection: selection });
  const shown = [focus, get().focusedFile, selection.cursorKey, keys[0]].find(
    (key) => key !== undefined && keys.includes(key),
  );
  set({ focusedFile: shown });
  if (shown !== undefined) await get().loadFileDiffs([shown]);
  if (kept !== undefined && generation === context.generation)
    await keepLinesIfUnchanged(context, kept, keptDiff, generation);
}

/** Loads the hunks of `batches` one batch per call, in turn. */
async function loadBatches(
  context: DetailContext,
  detail: CheckpointDetail,
  batches: readonly string[][],
): Promise<void> {
  const { set, pending } = context;
  const generation = context.generation;
  for (const batch of batches) {
    set((state) => ({
      fileDiffs: new Map([
        ...state.fileDiffs,
        ...batch.map((path): [string, FileDiffState] => [
          path,
          { load: loading, diff: state.fileDiffs.get(path)?.diff },
        ]),
      ]),
    }));
    const result = await context.client.call('checkpoints:file-diffs', {
      dir: detail.dir,
      ...diffSides(detail),
      paths: batch,
    });
    if (generation !== context.generation) return;
    for (const path of batch) pending.delete(path);
    set((state) => ({ fileDiffs: withBatchLoaded(state.fileDiffs, batch, result) }));
  }
}

/**
 * Loads the hunks of these files (those not loaded yet), a batch per call; resolves once all of
 * them are in, including those another call was already fetching.
 */
async function loadFileDiffs(context: DetailContext, paths: readonly string[]): Promise<void> {
  const { get, pending } = context;
  const detail = get().detail;
  if (detail === undefined) return;
  const underWay = new Set(paths.flatMap((path) => pending.get(path) ?? []));
  const wanted = paths.filter((path) => !pending.has(path) && get().fileDiffs.get(path)?.load.kind !== 'ready');
  const batches: string[][] = [];
  for (let start = 0; start < wanted.length; start += diffBatch) batches.push(wanted.slice(start, start + diffBatch));
  // Marked pending before the first batch is asked for, so a call meanwhile waits for it instead of asking again.
  let settle = (): void => undefined;
  const done = new Promise<void>((resolve) => {
    settle = resolve;
  });
  for (const path of wanted) pending.set(path, done);
  try {
    await loadBatches(context, detail, batches);
  } finally {
    settle();
  }
  await Promise.all(underWay);
}

/** Opens a checkpoint against its compare target (the directory now by default), or only moves the focus if it is open. */
async function openCheckpoint(
  context: DetailContext,
  dir: string,
  checkpointId: string,
  options: { readonly compare?: CompareTarget; readonly focus?: string },
): Promise<void> {
  const { get, set } = context;
  const current = get().detail;
  const compare = options.compare ?? { kind: 'live' };
  const isSame = current?.dir === dir && current.checkpointId === checkpointId;
  if (isSame && options.compare === undefined) {
    if (options.focus !== undefined) await get().showFileDiff(options.focus);
    return;
  }
  set({
    detail: { dir, checkpointId, compare, load: idle, files: [], totalFiles: 0 },
    ...(isSame ? {} : { fileSelection: emptySelection }),
    focusedFile: options.focus,
  });
  await loadFiles(context, options.focus);
}

/** The checkpoint slice, bound to a client. */
export function createCheckpointSlice(client: VigilClient): StateCreator<AppState, [], [], CheckpointSlice> {
  return (set, get) => {
    const context: DetailContext = { client, set, get, generation: 0, pending: new Map() };
    return {
      detail: undefined,
      fileSelection: emptySelection,
      focusedFile: undefined,
      fileDiffs: new Map(),
      diffMode: 'file',
      lineSelection: undefined,

      openCheckpoint: (dir, checkpointId, options = {}) => openCheckpoint(context, dir, checkpointId, options),

      closeCheckpoint: () => {
        context.generation += 1;
        set({
          detail: undefined,
          fileSelection: emptySelection,
          focusedFile: undefined,
          fileDiffs: new Map(),
          lineSelection: undefined,
        });
      },

      compareWith: async (compare) => {
        const detail = get().detail;
        if (detail === undefined) return;
        set({ detail: { ...detail, compare, files: [], totalFiles: 0 } });
        await loadFiles(context);
      },

      refreshDetail: () => loadFiles(context, undefined, { keepLines: true }),

      changeFileSelection: (selection) => {
        set({ fileSelection: selection });
        // The diff follows the cursor once a press is over (a drag only selects).
        if (
          selection.cursorKey !== undefined &&
          selection.drag === undefined &&
          selection.cursorKey !== get().focusedFile
        )
          void get().showFileDiff(selection.cursorKey);
      },

      showFileDiff: async (path) => {
        set({ focusedFile: path });
        await get().loadFileDiffs([path]);
      },

      loadFileDiffs: (paths) => loadFileDiffs(context, paths),

      setDiffMode: (mode) => set({ diffMode: mode, lineSelection: undefined }),

      changeLineSelection: (selection) => set({ lineSelection: selection }),
    };
  };
}
