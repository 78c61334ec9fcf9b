import { AppError } from '../../shared/errors';
import { parseToolArguments } from '../../shared/tools/parse-tool-arguments';
import type { WorkspaceContext } from '../workspace/workspace-context';
import { runPatch } from './run-patch';
import { runReadFile } from './run-read-file';
import { runWriteFile } from './run-write-file';

/** The tools implemented here. */
export const fileToolNames = ['read_file', 'write_file', 'patch'] as const;

/**
 * Runs a file tool exactly as an agent calls it: the raw arguments are validated by the tool's one
 * schema (a missing field is refused before anything is touched), then the path is confined to the
 * workspace and the tool runs. Resolves to the tool's result; throws an AppError for a tool error.
 */
export async function callFileTool(name: string, raw: unknown, context: WorkspaceContext): Promise<unknown> {
  switch (name) {
    case 'read_file':
      return runReadFile(parseToolArguments('read_file', raw), context);
    case 'write_file':
      return runWriteFile(parseToolArguments('write_file', raw), context);
    case 'patch':
      return runPatch(parseToolArguments('patch', raw), context);
    default:
      parseToolArguments(name, raw);
      throw new AppError('unsupported', `${name} is not a file tool (those are ${fileToolNames.join(', ')}); it runs through the tool executor.`, { tool: name });
  }
}
