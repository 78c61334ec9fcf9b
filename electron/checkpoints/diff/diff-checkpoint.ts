import type { z } from 'zod';
import { AppError } from '../../../shared/errors';
import type { diffFileSchema, diffPageSchema, fileDiffSchema } from '../../../shared/contract/checkpoints-diff-schemas';
import { mapLimit } from '../../files';
import type { CheckpointEntry } from '../checkpoint-types';
import {
  defaultTextDiffLimits,
  diffText,
  readSideContent,
  type DiffEngine,
  type DiffSides,
  type TextDiffLimits,
  type TreeChange,
} from '../compare';
import { fileModes } from '../../git-store';

/** One changed file with its line counts. */
export type DiffFile = z.output<typeof diffFileSchema>;
/** A page of a diff's file list. */
export type DiffPage = z.output<typeof diffPageSchema>;
/** One file's hunks. */
export type FileDiff = z.output<typeof fileDiffSchema>;

/** Files whose line counts are computed at once for a page. */
const statConcurrency = 16;

/** git's status letter in words. */
export function changeStatus(change: TreeChange): DiffFile['status'] {
  if (change.old === undefined) return 'added';
  if (change.new === undefined) return 'deleted';
  const wasLink = change.old.mode === fileModes.symlink;
  const isLink = change.new.mode === fileModes.symlink;
  return wasLink === isLink ? 'modified' : 'type-changed';
}

function brief(entry: CheckpointEntry): { id: string; reason: string; time: string } {
  return { id: entry.id, reason: entry.reason, time: entry.time };
}

/** The kind of content shown for a change: symlinks are shown as their targets, like git. */
function contentKind(change: TreeChange, kind: 'text' | 'binary' | 'too-large'): DiffFile['kind'] {
  const isLink = change.old?.mode === fileModes.symlink || change.new?.mode === fileModes.symlink;
  return isLink && kind === 'text' ? 'symlink' : kind;
}

/** Where the symlinks of a change point, on the sides where it is one. */
function linkTargetsOf(
  change: TreeChange,
  oldBytes: Uint8Array | undefined,
  newBytes: Uint8Array | undefined,
): DiffFile['linkTargets'] {
  const target = (file: TreeChange['old'], bytes: Uint8Array | undefined): string | undefined =>
    file?.mode === fileModes.symlink && bytes !== undefined ? Buffer.from(bytes).toString('utf8') : undefined;
  const old = target(change.old, oldBytes);
  const now = target(change.new, newBytes);
  if (old === undefined && now === undefined) return undefined;
  return { old, new: now };
}

/** The media types of the images a diff shows side by side, by extension. */
const imageTypes: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

/** Each side of an image shown is at most this big (it crosses the contract as base64). */
const maxImageBytes = 2 * 1024 * 1024;

/** An image's two versions as `data:` URLs (the renderer's policy allows `img-src data:`), or undefined for other files. */
function imagesOf(
  change: TreeChange,
  oldBytes: Uint8Array | undefined,
  newBytes: Uint8Array | undefined,
): FileDiff['images'] {
  const extension = change.path.slice(change.path.lastIndexOf('.') + 1).toLowerCase();
  const type = change.path.includes('.') ? imageTypes[extension] : undefined;
  if (type === undefined || change.old?.mode === fileModes.symlink || change.new?.mode === fileModes.symlink)
    return undefined;
  const url = (bytes: Uint8Array | undefined): string | undefined =>
    bytes === undefined || bytes.byteLength > maxImageBytes
      ? undefined
      : `data:${type};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
  const [oldUrl, newUrl] = [url(oldBytes), url(newBytes)];
  return { ...(oldUrl !== undefined && { old: oldUrl }), ...(newUrl !== undefined && { new: newUrl }) };
}

/** Compares one change's two sides line by line. */
async function compareChange(
  engine: DiffEngine,
  sides: DiffSides,
  change: TreeChange,
  limits: TextDiffLimits,
): Promise<FileDiff> {
  const [oldBytes, newBytes] = await Promise.all([
    readSideContent(engine, sides, 'old', change),
    readSideContent(engine, sides, 'new', change),
  ]);
  const text = diffText(oldBytes, newBytes, limits);
  const linkTargets = linkTargetsOf(change, oldBytes, newBytes);
  const images = limits.maxLines === 0 ? undefined : imagesOf(change, oldBytes, newBytes);
  return {
    path: change.path,
    status: changeStatus(change),
    ...(change.old && { oldMode: change.old.mode }),
    ...(change.new && { newMode: change.new.mode }),
    kind: contentKind(change, text.kind),
    additions: text.additions,
    deletions: text.deletions,
    ...(linkTargets && { linkTargets }),
    ...(oldBytes && { oldSize: oldBytes.byteLength }),
    ...(newBytes && { newSize: newBytes.byteLength }),
    hunks: text.hunks.map((hunk) => ({ ...hunk })),
    omittedLines: text.omittedLines,
    ...(change.old && { oldOid: change.old.oid }),
    ...(change.new && { newOid: change.new.oid }),
    ...(images && { images }),
  };
}

/** A page of the diff's file list (`offset`, at most `limit` files), each with its line counts. */
export async function diffPage(engine: DiffEngine, sides: DiffSides, offset: number, limit: number): Promise<DiffPage> {
  const page = sides.changes.slice(offset, offset + limit);
  const files = await mapLimit(page, statConcurrency, async (change) => {
    const {
      hunks: _hunks,
      omittedLines: _omitted,
      oldSize: _oldSize,
      newSize: _newSize,
      oldOid: _oldOid,
      newOid: _newOid,
      images: _images,
      ...file
    } = await compareChange(engine, sides, change, {
      ...defaultTextDiffLimits,
      maxLines: 0,
    });
    return file;
  });
  const end = offset + page.length;
  return {
    dir: sides.dir,
    from: brief(sides.from),
    to: sides.to.kind === 'live' ? { kind: 'live' } : { kind: 'checkpoint', checkpoint: brief(sides.to.checkpoint) },
    totalFiles: sides.changes.length,
    offset,
    nextOffset: end < sides.changes.length ? end : null,
    files,
  };
}

/** One file's diff with hunks (capped at `maxLines`); `not_found` when the file did not change. */
export async function diffOneFile(
  engine: DiffEngine,
  sides: DiffSides,
  relativePath: string,
  maxLines: number,
): Promise<FileDiff> {
  const change = sides.changes.find((candidate) => candidate.path === relativePath);
  if (change === undefined) {
    throw new AppError(
      'not_found',
      `${relativePath} is the same in both versions (or exists in neither), so there is no diff to show. List the changed files with the diff's file list.`,
      { path: relativePath },
    );
  }
  return compareChange(engine, sides, change, { ...defaultTextDiffLimits, maxLines });
}

/** Several files' diffs with hunks (each capped at `maxLines`); named paths that did not change are listed as `unchanged`. */
export async function diffFiles(
  engine: DiffEngine,
  sides: DiffSides,
  relativePaths: readonly string[],
  maxLines: number,
): Promise<{ files: FileDiff[]; unchanged: string[] }> {
  const byPath = new Map(sides.changes.map((change) => [change.path, change]));
  const changes = relativePaths
    .map((relativePath) => byPath.get(relativePath))
    .filter((change): change is TreeChange => change !== undefined);
  const files = await mapLimit(changes, statConcurrency, (change) =>
    compareChange(engine, sides, change, { ...defaultTextDiffLimits, maxLines }),
  );
  return { files, unchanged: relativePaths.filter((relativePath) => !byPath.has(relativePath)) };
}
