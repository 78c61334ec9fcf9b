import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { closestName } from '../../shared/tools/closest-name';
import { defaultReadLimit } from '../../shared/tools/read-file-tool';
import type { ToolInput, ToolOutput } from '../../shared/tools/tool-registry';
import { resolveWorkspacePath } from '../workspace/resolve-workspace-path';
import type { WorkspaceContext } from '../workspace/workspace-context';
import { binaryFileError, binaryProbeBytes, invalidUtf8Offset, notUtf8Error } from './decode-utf8';
import { errnoCode, fileSystemError } from './file-system-error';
import { TextWindowBuilder, type TextWindow } from './text-window';
import { isVigilBookkeepingFile } from './vigil-temp-name';

/** Characters per line shown at most; longer lines are cut and marked. */
const maxLineChars = 2000;

/** Characters of content returned by one call at most (about 25k tokens). */
const maxContentChars = 100_000;

/** Entries listed when a directory is given instead of a file. */
const maxListedEntries = 30;

/** A not-found error that suggests the file the agent probably meant. */
async function notFound(absolute: string): Promise<AppError> {
  const names = await readdir(path.dirname(absolute)).catch(() => []);
  const suggestion = closestName(path.basename(absolute), names.filter((name) => !isVigilBookkeepingFile(name)));
  const hint = suggestion === undefined ? '' : ` Did you mean ${path.join(path.dirname(absolute), suggestion)}?`;
  return new AppError('not_found', `${absolute} does not exist.${hint}`, { path: absolute, suggestion });
}

/** A directory given instead of a file: refused, with its first entries to pick from. */
async function isDirectoryError(absolute: string): Promise<AppError> {
  const names = (await readdir(absolute).catch(() => [])).filter((name) => !isVigilBookkeepingFile(name)).sort();
  const listed = names.slice(0, maxListedEntries).join(', ') + (names.length > maxListedEntries ? `, … (${names.length} entries)` : '');
  return new AppError('wrong_kind', `${absolute} is a directory, not a file. It holds: ${listed === '' ? '(nothing)' : listed}.`, { path: absolute });
}

/** Streams the file through a strict UTF-8 decoder into a window of lines. */
async function scan(absolute: string, size: number, builder: TextWindowBuilder): Promise<TextWindow> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let seen = 0;
  for await (const chunk of createReadStream(absolute, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    if (seen < binaryProbeBytes && chunk.subarray(0, binaryProbeBytes - seen).includes(0)) throw binaryFileError(absolute, size, 'read_file');
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

/**
 * The `read_file` tool: a window of a UTF-8 text file inside the workspace as numbered lines, with
 * the file's total lines, line endings and BOM. Binary and non-UTF-8 files are refused explicitly.
 */
export async function runReadFile(args: ToolInput<'read_file'>, context: WorkspaceContext): Promise<ToolOutput<'read_file'>> {
  const { absolute } = await resolveWorkspacePath(args.path, context);
  const offset = args.offset ?? 1;
  const limit = args.limit ?? defaultReadLimit;
  let size: number;
  try {
    const stats = await stat(absolute);
    if (stats.isDirectory()) throw await isDirectoryError(absolute);
    if (!stats.isFile()) throw new AppError('wrong_kind', `${absolute} is not a regular file (a FIFO, socket or device); it was not read.`, { path: absolute });
    size = stats.size;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') throw await notFound(absolute);
    throw fileSystemError(error, 'read', absolute);
  }
  let window: TextWindow;
  try {
    window = await scan(absolute, size, new TextWindowBuilder({ offset, limit, maxLineChars, maxChars: maxContentChars }));
  } catch (error) {
    throw fileSystemError(error, 'read', absolute);
  }
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
