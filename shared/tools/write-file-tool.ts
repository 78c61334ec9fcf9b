import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { defineTool } from './define-tool';
import { pathField, textField } from './text-field';

/** `write_file`: create or replace a whole file, atomically. */
export const writeFileTool = defineTool({
  name: 'write_file',
  summary: 'Create a file or replace its whole content, atomically.',
  description: [
    'Writes `content` to the file at `path`, replacing everything it held. The write is atomic: readers and crashes see the whole old file or the whole new one, never a mix.',
    'Missing parent directories are created (the result lists them). An existing file keeps its permissions; a symlink keeps being a link and its target is written.',
    'Both fields are required. `"content": ""` is a legitimate value and empties the file; a call without `content` is refused and changes nothing.',
    'To change part of a file, prefer `patch`.',
  ].join('\n'),
  input: lazySchema(() =>
    z.strictObject({
      path: pathField(
        "The file to write: relative to the session's working directory, absolute, or starting with ~. It must be inside a workspace root.",
      ),
      content: textField(
        'The complete new content of the file, as text (UTF-8). An empty string writes an empty file.',
      ),
    }),
  ),
  output: lazySchema(() =>
    z.object({
      path: z.string().describe('The file actually written (symlinks resolved).'),
      bytes_written: z.int().describe('The size of the file now, in bytes.'),
      created: z.boolean().describe('Whether the file did not exist before.'),
      dirs_created: z
        .array(z.string())
        .describe('The directories this call created, outermost first (empty when all existed).'),
    }),
  ),
  notRunEffect: 'No file was created or modified.',
});
