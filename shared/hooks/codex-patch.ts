import { HookFieldError } from './hook-fields';

/** The headers of Codex's patch format that name a file: add, delete, update, and the new name of an update that moves it. */
const fileHeader = /^\*\*\* (Add File|Delete File|Update File|Move to): (.+)$/;

/**
 * The files a Codex `apply_patch` call changes, read from its patch text (`tool_input.command` in
 * its hook events): every `*** Add File:`, `*** Delete File:`, `*** Update File:` and `*** Move
 * to:` path, in order, each once, as the patch names them (relative to the session's cwd, or
 * absolute). Text that is not such a patch, or names no file, throws a HookFieldError: a call
 * Vigil cannot read is refused, never let through unread.
 */
export function codexPatchPaths(patch: string, field: string): readonly string[] {
  const lines = patch.split('\n').map((line) => line.replace(/\r$/, ''));
  if (!lines.some((line) => line.trim() === '*** Begin Patch'))
    throw new HookFieldError(field, `"${field}" is not a patch Vigil can read: it has no "*** Begin Patch" line`);
  const paths: string[] = [];
  for (const line of lines) {
    const path = fileHeader.exec(line.trimStart())?.[2]?.trim();
    if (path !== undefined && path !== '' && !paths.includes(path)) paths.push(path);
  }
  if (paths.length === 0)
    throw new HookFieldError(
      field,
      `"${field}" is a patch that names no file ("*** Add File:", "*** Update File:", "*** Delete File:")`,
    );
  return paths;
}
