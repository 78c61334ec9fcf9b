import { AppError } from '../../shared/errors';
import type { ToolInput, ToolOutput } from '../../shared/tools/tool-registry';
import { resolveWorkspacePath } from '../workspace/resolve-workspace-path';
import type { WorkspaceContext } from '../workspace/workspace-context';
import { writeFileAtomic } from './atomic-write';

/**
 * The `write_file` tool: writes the whole content to a file inside the workspace, atomically,
 * and says what it did (the resolved path, the bytes, whether the file is new, the directories made).
 */
export async function runWriteFile(args: ToolInput<'write_file'>, context: WorkspaceContext): Promise<ToolOutput<'write_file'>> {
  if (/[\\/]$/u.test(args.path)) {
    throw new AppError('invalid_request', `write_file was not run: the path "${args.path}" ends with a separator, so it names a directory; give the path of a file. No file was created or modified.`, {
      path: args.path,
    });
  }
  const { absolute } = await resolveWorkspacePath(args.path, context);
  const result = await writeFileAtomic(absolute, args.content, { requireCanonical: true });
  return { path: result.path, bytes_written: result.bytesWritten, created: result.created, dirs_created: [...result.dirsCreated] };
}
