import { createPatch } from 'diff';
import { AppError, isAppError } from '../../../shared/errors';
import type { ToolInput, ToolOutput } from '../../../shared/tools/tool-registry';
import type { FileTarget } from '../../workspace';
import { applyPatch, type PatchedText } from './apply-patch';
import { decodeUtf8File, editAnchoredFile } from '../../files';

/** Lines of diff returned at most; the rest is summarized. */
const maxDiffLines = 200;

/** A unified diff of the change, shortened when long (the diff is for reading, the file is the truth). */
function describeChange(displayPath: string, patched: PatchedText): string {
  const diff = createPatch(displayPath, patched.before, patched.after, undefined, undefined, {
    context: 3,
    timeout: 500,
  });
  if (diff === undefined)
    return `(the diff took too long to compute; ${patched.replacements} replacement(s) at lines ${patched.lines.join(', ')})`;
  const lines = diff.split('\n');
  return lines.length <= maxDiffLines
    ? diff
    : `${lines.slice(0, maxDiffLines).join('\n')}\n… (${lines.length - maxDiffLines} more diff lines)`;
}

/**
 * The `patch` tool: replaces exact text in the file its prepare resolved, atomically and in exactly
 * the folder that was checked, keeping its BOM, line endings and mode; refuses (changing nothing)
 * when the text is missing, ambiguous or unchanged.
 */
export async function runPatch(args: ToolInput<'patch'>, target: FileTarget): Promise<ToolOutput<'patch'>> {
  const absolute = target.path;
  let patched: PatchedText | undefined;
  const result = await editAnchoredFile(target, (current) => {
    const text = decodeUtf8File(current, absolute, 'patch');
    patched = applyPatch(text, args.old_string, args.new_string, args.replace_all === true, absolute);
    return patched.text;
  }).catch((error: unknown) => {
    if (isAppError(error) && error.code === 'not_found') {
      throw new AppError(
        'not_found',
        `${absolute} does not exist, so there is nothing to patch. To create a file, use write_file.`,
        { path: absolute },
      );
    }
    throw error;
  });
  if (patched === undefined) throw new Error('patch wrote a file without computing its content');
  return {
    path: result.path,
    bytes_written: result.bytesWritten,
    replacements: patched.replacements,
    lines: [...patched.lines],
    diff: describeChange(result.path, patched),
  };
}
