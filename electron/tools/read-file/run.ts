import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { AppError, isAppError } from '../../../shared/errors';
import { closestName } from '../../../shared/tools/closest-name';
import { defaultReadLimit } from '../../../shared/tools/read-file-tool';
import type { ToolInput, ToolOutput } from '../../../shared/tools/tool-registry';
import type { FileTarget } from '../../workspace';
import {
  binaryFileError,
  binaryProbeBytes,
  fileSystemError,
  type HeldDirectory,
  holdChildDirectory,
  invalidUtf8Offset,
  isVigilBookkeepingFile,
  notUtf8Error,
  type OpenedEntry,
  openHeldEntry,
  withHeldFolder,
} from '../../files';
import { TextWindowBuilder, type TextWindow } from './text-window';

/** Characters per line shown at most; longer lines are cut and marked. */
const maxLineChars = 2000;

/** Characters of content returned by one call at most (about 25k tokens). */
const maxContentChars = 100_000;

/** Entries listed when a directory is given instead of a file. */
const maxListedEntries = 30;

/** A not-found error that suggests the file the agent probably meant (from the held folder). */
async function notFound(folder: HeldDirectory, absolute: string): Promise<AppError> {
  const names = await readdir(folder.access).catch(() => []);
  const suggestion = closestName(
    path.basename(absolute),
    names.filter((name) => !isVigilBookkeepingFile(name)),
  );
  const hint = suggestion === undefined ? '' : ` Did you mean ${path.join(path.dirname(absolute), suggestion)}?`;
  return new AppError('not_found', `${absolute} does not exist.${hint}`, { path: absolute, suggestion });
}

/** The names in a folder inside a held one (never through a symlink), or none when it cannot be held. */
async function namesIn(folder: HeldDirectory, name: string): Promise<string[]> {
  const child = await holdChildDirectory(folder, name).catch(() => undefined);
  if (child === undefined) return [];
  try {
    return await readdir(child.access).catch(() => []);
  } finally {
    await child.close();
  }
}

/** A directory given instead of a file: refused, with its first entries to pick from. */
async function isDirectoryError(folder: HeldDirectory, absolute: string): Promise<AppError> {
  const names = (await namesIn(folder, path.basename(absolute))).filter((name) => !isVigilBookkeepingFile(name)).sort();
  const listed =
    names.slice(0, maxListedEntries).join(', ') +
    (names.length > maxListedEntries ? `, … (${names.length} entries)` : '');
  return new AppError(
    'wrong_kind',
    `${absolute} is a directory, not a file. It holds: ${listed === '' ? '(nothing)' : listed}.`,
    { path: absolute },
  );
}

/** Streams the file through a strict UTF-8 decoder into a window of lines. */
async function scan(
  opened: OpenedEntry,
  absolute: string,
  size: number,
  builder: TextWindowBuilder,
): Promise<TextWindow> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let seen = 0;
  for await (const chunk of opened.handle.createReadStream({
    highWaterMark: 256 * 1024,
    start: 0,
    autoClose: false,
  }) as AsyncIterable<Buffer>) {
    if (seen < binaryProbeBytes && chunk.subarray(0, binaryProbeBytes - seen).includes(0))
      throw binaryFileError(absolute, size, 'read_file');
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw notUtf8Error(absolute, seen + Math.max(0, invalidUtf8Offset(chunk)), 'read_file');
    }
    seen += chunk.length;
    builder.push(text);
  }
  try {
    builder.push(decoder.decode());
  } catch {
    throw notUtf8Error(absolute, seen, 'read_file');
  }
  return builder.finish();
}

/** Opens the file in its held folder, turning "missing" and "a folder" into errors that help. */
async function openTarget(folder: HeldDirectory, absolute: string): Promise<OpenedEntry> {
  try {
    return await openHeldEntry(folder, path.basename(absolute));
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') throw await notFound(folder, absolute);
    if (isAppError(error) && error.details?.['errno'] === 'EISDIR') throw await isDirectoryError(folder, absolute);
    throw error;
  }
}

/** Reads a window of the file, opened in exactly the folder its prepare checked. */
async function readWindow(
  folder: HeldDirectory,
  absolute: string,
  builder: TextWindowBuilder,
): Promise<{ size: number; window: TextWindow }> {
  const opened = await openTarget(folder, absolute);
  try {
    if (opened.stats.isDirectory()) throw await isDirectoryError(folder, absolute);
    if (!opened.stats.isFile())
      throw new AppError(
        'wrong_kind',
        `${absolute} is not a regular file (a FIFO, socket or device); it was not read.`,
        { path: absolute },
      );
    const size = Number(opened.stats.size);
    try {
      return { size, window: await scan(opened, absolute, size, builder) };
    } catch (error) {
      throw fileSystemError(error, 'read', absolute);
    }
  } finally {
    await opened.handle.close();
  }
}

/**
 * The `read_file` tool: a window of a UTF-8 text file (the one its prepare resolved, never through
 * a symlink swapped in since) as numbered lines, with the file's total lines, line endings and
 * BOM. Binary and non-UTF-8 files are refused explicitly.
 */
export async function runReadFile(args: ToolInput<'read_file'>, target: FileTarget): Promise<ToolOutput<'read_file'>> {
  const absolute = target.path;
  const offset = args.offset ?? 1;
  const limit = args.limit ?? defaultReadLimit;
  const builder = new TextWindowBuilder({ offset, limit, maxLineChars, maxChars: maxContentChars });
  const { size, window } = await withHeldFolder(target, { create: false }, ({ folder }) =>
    readWindow(folder, absolute, builder),
  );
  const note =
    window.totalLines === 0
      ? 'The file is empty.'
      : offset > window.totalLines
        ? `The file has ${window.totalLines} lines; offset ${offset} is past its end.`
        : undefined;
  return {
    path: absolute,
    content: window.lines.join('\n'),
    offset,
    lines_returned: window.lines.length,
    total_lines: window.totalLines,
    truncated: window.nextLine !== undefined,
    ...(window.nextLine === undefined ? {} : { next_offset: window.nextLine }),
    size_bytes: size,
    line_endings: window.lineEndings,
    bom: window.bom,
    long_lines_shortened: window.shortenedLines,
    ...(note === undefined ? {} : { note }),
  };
}
