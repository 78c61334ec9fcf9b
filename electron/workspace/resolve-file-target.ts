import { AppError } from '../../shared/errors';
import { anchorFile, type AnchoredFile } from '../files';
import { codeLocationOf } from './code-locations';
import { resolveWorkspacePath } from './resolve-workspace-path';
import type { WorkspaceContext } from './workspace-context';

/**
 * A file tool's target, resolved and confined once (in the tool's prepare): what policy approves,
 * the lock covers and the checkpoint captures. The tool then acts on exactly this file, in exactly
 * this folder (`folder` holds its identity), or refuses with `conflict`.
 */
export interface FileTarget extends AnchoredFile {
  /** The path the agent gave. */
  readonly input: string;
  /** The workspace root that contains it. */
  readonly root: string;
}

/** How a tool names its target. */
export interface FileTargetRules {
  /** The tool, for messages. */
  readonly tool: string;
  /** The path must name a file: a trailing separator (which names a folder) is refused. */
  readonly mustNameFile?: boolean;
  /** The tool writes the file: git's configuration and hooks and agents' settings are refused (`forbidden_path`). */
  readonly isWrite?: boolean;
}

/** Refuses a write to a file another program would later run or obey outside the sandbox. */
async function refuseCodeLocation(
  input: string,
  absolute: string,
  root: string,
  context: WorkspaceContext,
  tool: string,
): Promise<void> {
  const location = await codeLocationOf(absolute, root, context.homeDir);
  if (location === undefined) return;
  throw new AppError(
    'forbidden_path',
    `${tool} was not run: "${input}" is inside ${location.path}, which agents may not write: ${location.reason}, outside Vigil's sandbox, the next time you use it. Nothing was written. If the change is meant, make it yourself.`,
    { tool, path: input, resolved: absolute, protected: location.path },
  );
}

/**
 * Resolves a path an agent gave to a file tool: refuses what cannot name a file, confines it to
 * the session's workspace (`resolveWorkspacePath`), and anchors its folder. It changes nothing.
 */
export async function resolveFileTarget(
  input: string,
  context: WorkspaceContext,
  rules: FileTargetRules,
): Promise<FileTarget> {
  if (rules.mustNameFile === true && /[\\/]$/u.test(input)) {
    throw new AppError(
      'invalid_request',
      `${rules.tool} was not run: the path "${input}" ends with a separator, so it names a directory; give the path of a file. No file was created or modified.`,
      { tool: rules.tool, field: 'path', path: input },
    );
  }
  const { absolute, root } = await resolveWorkspacePath(input, context);
  if (rules.isWrite === true) await refuseCodeLocation(input, absolute, root, context, rules.tool);
  return { ...(await anchorFile(absolute)), input, root };
}
