import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { defineTool } from './define-tool';
import { pathField, textField } from './text-field';

/** `patch`: replace exact text in a file, atomically. */
export const patchTool = defineTool({
  name: 'patch',
  summary: 'Replace an exact piece of text in a file, atomically.',
  description: [
    'Finds `old_string` in the file at `path` — an exact match, whitespace and line breaks included — and replaces it with `new_string`. The file is rewritten atomically, keeping its line endings (CRLF stays CRLF), its byte-order mark and its permissions.',
    '`old_string` must occur exactly once, unless `replace_all` is true: several matches are refused with their line numbers, so include more surrounding lines to make it unique. No match is refused with the closest lines of the file, to copy from.',
    '`new_string` may be "" to delete the text. It must differ from `old_string`. To create a file, use `write_file`.',
  ].join('\n'),
  input: lazySchema(() =>
    z.strictObject({
      path: pathField(
        "The file to change: relative to the session's working directory, absolute, or starting with ~. It must be inside a workspace root.",
      ),
      old_string: textField(
        "The exact text to replace, as it appears in the file (without read_file's line-number prefixes).",
      ).min(1, {
        message: 'is empty; give the exact text to replace (to create a file, use write_file)',
      }),
      new_string: textField('The text to put in its place; "" deletes it.'),
      replace_all: z
        .boolean()
        .optional()
        .describe('Replace every occurrence instead of requiring exactly one (default false).'),
    }),
  ),
  output: lazySchema(() =>
    z.object({
      path: z.string().describe('The file changed (symlinks resolved).'),
      bytes_written: z.int().describe('The size of the file now, in bytes.'),
      replacements: z.int().describe('How many occurrences were replaced.'),
      lines: z.array(z.int()).describe('The line where each replacement starts, in the new file.'),
      diff: z.string().describe('A unified diff of the change (shortened when long).'),
    }),
  ),
  notRunEffect: 'The file was not modified.',
});
