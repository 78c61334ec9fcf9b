import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { defineTool } from './define-tool';
import { pathField } from './text-field';

/** Lines returned by one `read_file` call when `limit` is not given. */
export const defaultReadLimit = 2000;

/** `read_file`: a window of a text file, with line numbers. */
export const readFileTool = defineTool({
  name: 'read_file',
  summary: 'Read a text file, or a window of its lines, with line numbers.',
  description: [
    'Returns up to `limit` lines of the file at `path`, starting at line `offset` (1-based). Each line is prefixed with its number and a tab ("    12\\tcode"); the prefix is not part of the file, so leave it out of `patch` arguments.',
    `Without \`limit\` at most ${defaultReadLimit} lines are returned; very long lines are shortened and said so. When \`truncated\` is true, call again with \`offset\` set to \`next_offset\`.`,
    'The result reports the total number of lines, the line endings and whether the file starts with a byte-order mark (both hidden from `content`, and both kept by `patch`).',
    'Only UTF-8 text is returned: a binary or non-UTF-8 file is refused with an error saying so, never shown garbled.',
  ].join('\n'),
  input: lazySchema(() =>
    z.strictObject({
      path: pathField(
        "The file to read: relative to the session's working directory, absolute, or starting with ~. It must be inside a workspace root.",
      ),
      offset: z
        .int()
        .min(1, { message: 'must be 1 or more (lines are numbered from 1)' })
        .optional()
        .describe('The first line to return, 1-based (default 1).'),
      limit: z
        .int()
        .min(1, { message: 'must be 1 or more' })
        .optional()
        .describe(`How many lines to return at most (default ${defaultReadLimit}).`),
    }),
  ),
  output: lazySchema(() =>
    z.object({
      path: z.string().describe('The file read (symlinks resolved).'),
      content: z.string().describe('The lines, each prefixed with its number and a tab.'),
      offset: z.int().describe('The number of the first line returned.'),
      lines_returned: z.int().describe('How many lines `content` holds.'),
      total_lines: z.int().describe('How many lines the whole file has.'),
      truncated: z.boolean().describe('Whether lines after the returned ones were left out.'),
      next_offset: z.int().optional().describe('When truncated: the `offset` that continues the reading.'),
      size_bytes: z.int().describe('The size of the file in bytes.'),
      line_endings: z
        .enum(['lf', 'crlf', 'mixed', 'none'])
        .describe("The file's line endings (hidden from `content`)."),
      bom: z.boolean().describe('Whether the file starts with a UTF-8 byte-order mark (hidden from `content`).'),
      long_lines_shortened: z.int().describe('How many returned lines were too long and were shortened.'),
      note: z.string().optional().describe('Anything else worth knowing about this result.'),
    }),
  ),
  notRunEffect: 'Nothing was read.',
});
