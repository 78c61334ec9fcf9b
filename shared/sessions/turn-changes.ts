/**
 * One turn's own changeset, from the effects its session's calls recorded (the same records the
 * write ledger takes): per file the change from before the turn to after it, and its lines added
 * and removed summed over the turn's calls. It counts this session's changes only, whoever else
 * wrote in the folder meanwhile. The timeline's rows, the transcript and `vigil sessions show
 * --turn` all count with these functions, so they show the same numbers.
 */

/** A file a call changed, as the session log records it (absolute path). */
export interface RecordedEffect {
  readonly path: string;
  readonly change: 'created' | 'modified' | 'deleted';
  readonly added?: number | undefined;
  readonly removed?: number | undefined;
  /** Already merged, and some of its changes were not counted in lines. */
  readonly isPartlyCounted?: boolean | undefined;
}

/** A call as far as its changes go. */
export interface EffectsOfCall {
  readonly effects?: readonly RecordedEffect[] | undefined;
  readonly effectsOmitted?: number | undefined;
}

/** One file of a turn's changeset: its change over the whole turn, its lines where counted. */
export interface TurnFileChange {
  readonly path: string;
  readonly change: 'created' | 'modified' | 'deleted';
  readonly added: number;
  readonly removed: number;
  /** A change to it could not be counted in lines (a command modified it): the counts are a lower bound. */
  readonly isPartlyCounted: boolean;
}

/** A turn's changeset in one folder (or all of it): its files and the sums a row shows. */
export interface TurnChanges {
  readonly files: readonly TurnFileChange[];
  readonly counts: { readonly files: number; readonly insertions: number; readonly deletions: number };
  /** Some changes were not counted in lines (a command's), or some files not recorded (`omitted`). */
  readonly isPartlyCounted: boolean;
  /** Files the calls changed beyond what their records hold (a command that changed very many). */
  readonly omitted: number;
}

/** What a file's change is after a second one: created then changed is still created; deleted then written again, changed. */
function combined(first: TurnFileChange['change'], next: TurnFileChange['change']): TurnFileChange['change'] | 'none' {
  if (first === 'created') return next === 'deleted' ? 'none' : 'created';
  if (first === 'deleted') return next === 'deleted' ? 'deleted' : 'modified';
  return next === 'deleted' ? 'deleted' : 'modified';
}

/** Whether `file` is `directory` itself or inside it (either separator; absolute paths as recorded). */
export function isInFolder(file: string, directory: string): boolean {
  const trimmed = directory.replace(/[\\/]+$/u, '');
  if (file === trimmed) return true;
  return file.startsWith(`${trimmed}/`) || file.startsWith(`${trimmed}\\`);
}

/** Merges one effect into the files so far. */
function addEffect(files: Map<string, TurnFileChange>, effect: RecordedEffect): void {
  const known = files.get(effect.path);
  // A deleted file's lines are counted only where the call could read them first.
  const isCounted = effect.isPartlyCounted !== true && (effect.added !== undefined || effect.removed !== undefined);
  const change = known === undefined ? effect.change : combined(known.change, effect.change);
  files.delete(effect.path);
  // A file the turn created and then deleted again is not part of its changeset.
  if (change === 'none') return;
  files.set(effect.path, {
    path: effect.path,
    change,
    added: (known?.added ?? 0) + (effect.added ?? 0),
    removed: (known?.removed ?? 0) + (effect.removed ?? 0),
    isPartlyCounted: (known?.isPartlyCounted ?? false) || !isCounted,
  });
}

/** The changeset of a turn's calls, in `directory` when one is given (else everywhere). Files sorted by path. */
export function turnChanges(calls: readonly EffectsOfCall[], directory?: string): TurnChanges {
  const files = new Map<string, TurnFileChange>();
  let omitted = 0;
  for (const call of calls) {
    const here = (call.effects ?? []).filter((effect) => directory === undefined || isInFolder(effect.path, directory));
    for (const effect of here) addEffect(files, effect);
    // Files beyond the recorded ones are counted where the call's recorded changes are.
    if (directory === undefined || here.length > 0) omitted += call.effectsOmitted ?? 0;
  }
  const sorted = [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    files: sorted,
    counts: {
      files: sorted.length,
      insertions: sorted.reduce((sum, file) => sum + file.added, 0),
      deletions: sorted.reduce((sum, file) => sum + file.removed, 0),
    },
    isPartlyCounted: omitted > 0 || sorted.some((file) => file.isPartlyCounted),
    omitted,
  };
}

/** A changeset's sums as one line: `2 files, +12 −3` (`at least` when some were not counted in lines). */
export function changesWords(changes: TurnChanges): string {
  const { files, insertions, deletions } = changes.counts;
  const fileWords = `${files} file${files === 1 ? '' : 's'}`;
  return `${changes.isPartlyCounted ? 'at least ' : ''}${fileWords}, +${insertions} −${deletions}`;
}
