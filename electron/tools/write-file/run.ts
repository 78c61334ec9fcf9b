import type { ToolInput, ToolOutput } from '../../../shared/tools/tool-registry';
import type { FileTarget } from '../../workspace';
import { writeAnchoredFile } from '../../files';

/**
 * The `write_file` tool: writes the whole content to the file its prepare resolved, atomically and
 * in exactly the folder that was checked, and says what it did (the path, the bytes, whether the
 * file is new, the directories made).
 */
export async function runWriteFile(
  args: ToolInput<'write_file'>,
  target: FileTarget,
): Promise<ToolOutput<'write_file'>> {
  const result = await writeAnchoredFile(target, args.content);
  return {
    path: result.path,
    bytes_written: result.bytesWritten,
    created: result.created,
    dirs_created: [...result.dirsCreated],
  };
}
