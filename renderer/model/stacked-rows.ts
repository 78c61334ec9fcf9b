import type { LoadState } from './load-state';
import { diffRows, type DiffRow, type UnifiedHunk } from './diff-rows';
import { fileChangeNote, type ChangedFileFacts } from './file-change-note';

/** A changed file of the comparison, as the stacked view lists it. */
export interface StackedFile extends ChangedFileFacts {
  readonly path: string;
}

/** One file's hunks, when loaded. */
export interface StackedFileDiff {
  readonly kind: string;
  readonly hunks: readonly UnifiedHunk[];
  readonly omittedLines: number;
  readonly oldSize?: number | undefined;
  readonly newSize?: number | undefined;
  readonly newOid?: string | undefined;
  /** An image's versions as `data:` URLs, shown side by side. */
  readonly images?: { readonly old?: string | undefined; readonly new?: string | undefined } | undefined;
}

/** What is known of one file's hunks. */
export interface StackedDiffState {
  readonly load: LoadState;
  readonly diff: StackedFileDiff | undefined;
}

/** A path the checkpoint did not store, and why. */
export interface SkippedFile {
  readonly path: string;
  readonly reason: string;
}

/** One row of the stacked view. Line rows carry a key unique in their file: `o12` (removed line 12), `n13` (added line 13), `c12` (context). */
export type StackedRow =
  | { readonly kind: 'file'; readonly path: string; readonly file: StackedFile }
  | {
      readonly kind: 'notice';
      readonly path: string;
      readonly text: string;
      readonly tone: 'info' | 'loading' | 'problem';
    }
  | { readonly kind: 'hunk'; readonly path: string; readonly hunk: number; readonly text: string }
  | { readonly kind: 'line'; readonly path: string; readonly hunk: number; readonly key: string; readonly row: DiffRow }
  | { readonly kind: 'more'; readonly path: string; readonly omitted: number }
  | { readonly kind: 'skipped'; readonly path: string; readonly reason: string }
  | { readonly kind: 'gap'; readonly path: string }
  | { readonly kind: 'images'; readonly path: string; readonly old?: string; readonly new?: string };

/** Pixel heights of the rows, by kind (fixed, so the list virtualizes without measuring). */
export const stackedRowHeights: Readonly<Record<StackedRow['kind'], number>> = {
  file: 34,
  notice: 30,
  hunk: 22,
  line: 18,
  more: 30,
  skipped: 26,
  gap: 12,
  images: 184,
};

const skipWords: Readonly<Record<string, string>> = {
  excluded: 'excluded (dependencies, build output, secrets, media): not stored, so it cannot be shown or restored',
  vcs: 'a version-control folder: not stored, so it cannot be shown or restored',
  oversize: 'larger than the size cap: not stored, so it cannot be shown or restored',
  special: 'not a regular file (socket, FIFO, device): not stored',
  unreadable: 'could not be read when the checkpoint was taken: not stored',
  'bad-name': 'its name is not valid UTF-8: not stored',
  more: 'more paths were not stored than the checkpoint lists',
};

function bytes(size: number | undefined): string {
  if (size === undefined) return '—';
  return size < 1024 * 1024 ? `${(size / 1024).toFixed(0)} KiB` : `${(size / 1024 / 1024).toFixed(1)} MiB`;
}

/** A binary file's sizes as the diff says them: "binary, N → M bytes" (0 on a side where it does not exist). */
export function binarySizes(diff: Pick<StackedFileDiff, 'oldSize' | 'newSize'>): string {
  const size = (value: number | undefined): string => (value ?? 0).toLocaleString('en-US');
  return `Binary, ${size(diff.oldSize)} → ${size(diff.newSize)} bytes`;
}

/** The key of a diff line in its file: which side's line number it stands for. */
export function lineKey(row: DiffRow): string {
  switch (row.kind) {
    case 'removed':
      return `o${row.oldNumber}`;
    case 'added':
      return `n${row.newNumber}`;
    case 'context':
      return `c${row.oldNumber}`;
    default:
      return '';
  }
}

/** The rows of one file under its header: its lines, or a one-line notice for what has none to show. */
function bodyRows(file: StackedFile, state: StackedDiffState | undefined): StackedRow[] {
  const { path } = file;
  if (state === undefined || (state.diff === undefined && state.load.kind !== 'failed'))
    return [{ kind: 'notice', path, text: 'Loading the diff…', tone: 'loading' }];
  if (state.diff === undefined)
    return [
      {
        kind: 'notice',
        path,
        text: state.load.kind === 'failed' ? state.load.error.message : 'No diff.',
        tone: 'problem',
      },
    ];
  const { diff } = state;
  const note = fileChangeNote(file);
  const notes: StackedRow[] = note === undefined ? [] : [{ kind: 'notice', path, text: note, tone: 'info' }];
  const { images } = diff;
  if (images !== undefined && (images.old !== undefined || images.new !== undefined))
    notes.push({
      kind: 'images',
      path,
      ...(images.old !== undefined && { old: images.old }),
      ...(images.new !== undefined && { new: images.new }),
    });
  if (diff.kind === 'binary')
    return [
      ...notes,
      {
        kind: 'notice',
        path,
        text: `${binarySizes(diff)}. Not shown as text (binary, or not UTF-8): its bytes differ, and its lines cannot be picked. Restore the whole file to bring it back.`,
        tone: 'info',
      },
    ];
  if (diff.kind === 'too-large')
    return [
      ...notes,
      {
        kind: 'notice',
        path,
        text: `Too large to show line by line (${bytes(diff.oldSize)} → ${bytes(diff.newSize)}). Restore the whole file to bring it back.`,
        tone: 'info',
      },
    ];
  if (diff.kind === 'symlink')
    return notes.length > 0
      ? notes
      : [{ kind: 'notice', path, text: 'A symbolic link: its target changed.', tone: 'info' }];
  const rows: StackedRow[] = [...notes];
  let hunk = -1;
  for (const row of diffRows(diff.hunks)) {
    if (row.kind === 'hunk') {
      hunk += 1;
      rows.push({ kind: 'hunk', path, hunk, text: row.text });
    } else rows.push({ kind: 'line', path, hunk, key: lineKey(row), row });
  }
  if (diff.omittedLines > 0) rows.push({ kind: 'more', path, omitted: diff.omittedLines });
  if (rows.length === 0)
    rows.push({ kind: 'notice', path, text: 'No line changes: only the file’s presence differs.', tone: 'info' });
  return rows;
}

/**
 * Every changed file of a comparison, one under another like a pull request: a header per file,
 * then its lines (or a notice for binary, oversize, link and mode-only changes), then the paths
 * the checkpoint did not store, each with the reason it cannot be shown or restored.
 */
export function stackedRows(
  files: readonly StackedFile[],
  diffs: ReadonlyMap<string, StackedDiffState>,
  skipped: readonly SkippedFile[] = [],
): StackedRow[] {
  const rows: StackedRow[] = [];
  for (const file of files) {
    rows.push({ kind: 'file', path: file.path, file }, ...bodyRows(file, diffs.get(file.path)), {
      kind: 'gap',
      path: file.path,
    });
  }
  for (const item of skipped)
    rows.push({ kind: 'skipped', path: item.path, reason: skipWords[item.reason] ?? item.reason });
  return rows;
}

/** The index of each file's header row. */
export function headerIndexes(rows: readonly StackedRow[]): Map<string, number> {
  const indexes = new Map<string, number>();
  rows.forEach((row, index) => {
    if (row.kind === 'file') indexes.set(row.path, index);
  });
  return indexes;
}
