import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { lineChoiceSchema, linePlanSchema } from '../../../shared/contract/checkpoints-history-contract';
import { AppError } from '../../../shared/errors';
import { linkedFolderError, linkedFolderOnTheWay } from '../../files';
import type { CheckpointEntry } from '../checkpoint-types';
import {
  absoluteIn,
  diffText,
  hasRealFolders,
  lookupPath,
  readDiskVersion,
  storedPathExclusion,
  type DiskVersion,
  type TreeFile,
  type TreeReader,
} from '../compare';
import { emptyTreeOid, fileModes, hashObject } from '../../git-store';
import { mergeLines, selectionOfOldRange, type LineRange, type LineSelection } from './line-range-merge';
import { toLineText, type LineText } from './line-text';

/** Which lines a caller asks for: a range of the checkpoint's version, or diff rows. */
export type LineChoice = z.output<typeof lineChoiceSchema>;
/** What restoring the lines would do. */
export type LinePlan = z.output<typeof linePlanSchema>;

/** A line restore worked out: the plan, and the bytes it would write. */
export interface PreparedLines {
  readonly plan: LinePlan;
  readonly content: Uint8Array;
}

/** One version of the file: where it is, and its bytes. */
export interface FileContent {
  readonly version: TreeFile;
  readonly bytes: Uint8Array;
}

/** The refusal that offers the whole-file restore instead (`details.choice`). */
function refuse(
  code: 'conflict' | 'not_found' | 'wrong_kind' | 'limit_exceeded',
  message: string,
  details: Record<string, unknown>,
): AppError {
  return new AppError(code, message, { ...details, choice: 'restore-whole-file' });
}

/** The checkpoint's version of a file: a regular file, or a refusal that says what it is instead. */
export async function checkpointFile(
  reader: TreeReader,
  readBlob: (oid: string) => Promise<Uint8Array>,
  checkpoint: CheckpointEntry,
  relativePath: string,
): Promise<FileContent> {
  const root = checkpoint.tree === emptyTreeOid ? undefined : checkpoint.tree;
  const entry = await lookupPath(reader, root, relativePath);
  const id = checkpoint.id.slice(0, 8);
  if (entry === undefined)
    throw refuse(
      'not_found',
      `${relativePath} is not in checkpoint ${id}: it was created after it, so it has no lines to put back. Restoring the whole file would delete it.`,
      { path: relativePath },
    );
  if (entry.type !== 'blob')
    throw new AppError(
      'wrong_kind',
      `${relativePath} is a folder in checkpoint ${id}; restore lines of a file in it.`,
      { path: relativePath },
    );
  if (entry.mode === fileModes.symlink)
    throw refuse(
      'wrong_kind',
      `${relativePath} is a symbolic link in checkpoint ${id}, which has no lines: restore the whole file instead.`,
      { path: relativePath },
    );
  return { version: { mode: entry.mode, oid: entry.oid }, bytes: await readBlob(entry.oid) };
}

/** The file on disk now, read once with the identity of the version read; refused when a line restore cannot write it. */
export async function currentFile(
  dir: string,
  relativePath: string,
  maxFileBytes: number,
): Promise<FileContent & { readonly disk: DiskVersion }> {
  if (storedPathExclusion(relativePath, false) !== undefined) {
    throw new AppError(
      'wrong_kind',
      `${relativePath} is a file Vigil's snapshots leave out (dependencies, build output, secrets, media), so no restore point could keep it: a restore never writes it.`,
      { path: relativePath },
    );
  }
  const absolute = absoluteIn(dir, relativePath);
  const disk = (await hasRealFolders(dir, relativePath))
    ? await readDiskVersion(absolute, undefined, { keepContent: true, within: dir })
    : { file: undefined, identity: undefined, linkedFolder: await linkedFolderOnTheWay(absolute, dir) };
  // Not "missing": a folder on the way is a symlink, which a snapshot stores as a link; nothing below it is read or written.
  if (disk.linkedFolder !== undefined) throw linkedFolderError(relativePath, disk.linkedFolder);
  if (disk.file === undefined) {
    throw refuse(
      'not_found',
      `${relativePath} does not exist in ${dir} now, so there are no lines to restore into: restore the whole file to bring it back.`,
      { path: relativePath },
    );
  }
  if (disk.file.mode === fileModes.symlink)
    throw refuse(
      'wrong_kind',
      `${relativePath} is a symbolic link now, which has no lines: restore the whole file instead.`,
      { path: relativePath },
    );
  // The bytes the version was hashed from (read without following a symlink or waiting on a FIFO): one read, no second race.
  const bytes = disk.content;
  if (bytes === undefined)
    throw new AppError('conflict', `${relativePath} changed while it was read. Try again.`, { path: relativePath });
  if (bytes.byteLength > maxFileBytes) {
    throw refuse(
      'limit_exceeded',
      `${relativePath} is larger than the size cap, so no restore point could keep its current version; a restore never overwrites it.`,
      { path: relativePath },
    );
  }
  return { version: disk.file, bytes, disk };
}

function asText(bytes: Uint8Array, name: string): LineText {
  const parsed = toLineText(bytes, name);
  if (parsed.kind === 'refused') throw refuse('wrong_kind', parsed.message, { problem: parsed.problem });
  return parsed;
}

function rangeText(range: LineRange): string {
  return range.from === range.to ? `line ${range.from}` : `lines ${range.from}–${range.to}`;
}

/** Refuses rows or a range outside the versions' lines, naming the valid range. */
function checkBounds(
  relativePath: string,
  checkpointId: string,
  lines: LineChoice,
  old: LineText,
  current: LineText,
): void {
  const outside = (ranges: readonly LineRange[], count: number): LineRange | undefined =>
    ranges.find((range) => range.to > count);
  const name = `${relativePath} in checkpoint ${checkpointId.slice(0, 8)}`;
  const valid = (count: number): string => (count === 0 ? 'it has no lines' : `use lines within 1–${count}`);
  if (lines.kind === 'range' || lines.kind === 'ranges') {
    const range = outside(lines.kind === 'range' ? [lines.range] : lines.ranges, old.lines.length);
    if (range === undefined) return;
    throw new AppError(
      'invalid_request',
      `${rangeText(range)} ${range.from === range.to ? 'is' : 'are'} outside ${name}, which has ${old.lines.length} line${old.lines.length === 1 ? '' : 's'}: ${valid(old.lines.length)}.`,
      {
        field: 'lines',
        path: relativePath,
        validRange: old.lines.length === 0 ? null : { from: 1, to: old.lines.length },
      },
    );
  }
  const badOld = outside(lines.selection.old, old.lines.length);
  const badNew = outside(lines.selection.new, current.lines.length);
  if (badOld !== undefined)
    throw new AppError('invalid_request', `${rangeText(badOld)} of ${name} do not exist: ${valid(old.lines.length)}.`, {
      field: 'lines',
      path: relativePath,
    });
  if (badNew !== undefined)
    throw new AppError(
      'invalid_request',
      `${rangeText(badNew)} of ${relativePath} now do not exist: ${valid(current.lines.length)}.`,
      { field: 'lines', path: relativePath },
    );
}

/** Ranges sorted, with those that overlap or touch joined: `--lines 1-5` and `6-9` mean `1-9`. */
function joinedRanges(ranges: readonly LineRange[]): LineRange[] {
  const joined: LineRange[] = [];
  for (const range of [...ranges].sort((a, b) => a.from - b.from)) {
    const last = joined[joined.length - 1];
    if (last !== undefined && range.from <= last.to + 1)
      joined[joined.length - 1] = { from: last.from, to: Math.max(last.to, range.to) };
    else joined.push(range);
  }
  return joined;
}

/** The rows a choice means: a range (or several) of the checkpoint's version as `--lines` reads it, or the rows as given. */
function selectionOf(lines: LineChoice, old: LineText, current: LineText): LineSelection {
  if (lines.kind === 'rows') return lines.selection;
  const parts = joinedRanges(lines.kind === 'range' ? [lines.range] : lines.ranges).map((range) =>
    selectionOfOldRange(old, current, range),
  );
  return {
    old: joinedRanges(parts.flatMap((part) => part.old)),
    new: joinedRanges(parts.flatMap((part) => part.new)),
  };
}

/** The fingerprint of a line plan: applying refuses when the checkpoint, the rows, or the versions moved. */
export function linePlanFingerprint(
  checkpointId: string,
  relativePath: string,
  selection: LineSelection,
  current: TreeFile,
  result: TreeFile,
): string {
  return createHash('sha256')
    .update(JSON.stringify([checkpointId, relativePath, selection, current, result]))
    .digest('hex');
}

/**
 * Works out a line restore from the two versions: the rows (a range of the checkpoint's version
 * becomes rows), the merged bytes, and a preview of how the file changes. Refuses a version that
 * is not UTF-8 text and rows outside either version.
 */
export function prepareLines(input: {
  readonly dir: string;
  readonly checkpoint: CheckpointEntry;
  readonly path: string;
  readonly lines: LineChoice;
  readonly old: FileContent;
  readonly current: FileContent;
  readonly isChangedOutsideAgents: boolean;
}): PreparedLines {
  const { checkpoint, path: relativePath } = input;
  const old = asText(input.old.bytes, `${relativePath} in checkpoint ${checkpoint.id.slice(0, 8)}`);
  const current = asText(input.current.bytes, `${relativePath} as it is now`);
  checkBounds(relativePath, checkpoint.id, input.lines, old, current);
  const selection = selectionOf(input.lines, old, current);
  const merged = mergeLines(old, current, selection);
  const result: TreeFile = { mode: input.current.version.mode, oid: hashObject('blob', merged.content) };
  const hunks = diffText(input.current.bytes, merged.content).hunks.map((hunk) => ({
    ...hunk,
    lines: [...hunk.lines],
  }));
  const plan: LinePlan = {
    dir: input.dir,
    checkpoint: { id: checkpoint.id, reason: checkpoint.reason, time: checkpoint.time },
    path: relativePath,
    selection: { old: selection.old.map((range) => ({ ...range })), new: selection.new.map((range) => ({ ...range })) },
    putBack: merged.putBack,
    takenOut: merged.takenOut,
    checkpointLines: old.lines.length,
    currentLines: current.lines.length,
    current: { ...input.current.version },
    result,
    hunks,
    isChangedOutsideAgents: input.isChangedOutsideAgents,
    fingerprint: linePlanFingerprint(checkpoint.id, relativePath, selection, input.current.version, result),
  };
  return { plan, content: merged.content };
}

/** Refuses rows picked on another version of the file than the one there now, offering the whole-file restore. */
export function checkBasis(relativePath: string, basis: string | undefined, current: TreeFile): void {
  if (basis === undefined || basis === current.oid) return;
  throw refuse(
    'conflict',
    `${relativePath} changed since its diff was shown, so the lines you picked may no longer be where they were: nothing was written. Look at the diff again and pick the lines, or restore the whole file.`,
    { path: relativePath, basis, current: current.oid },
  );
}
