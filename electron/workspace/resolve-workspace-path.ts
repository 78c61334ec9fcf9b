import path from 'node:path';
import { AppError } from '../../shared/errors';
import { canonicalPath } from '../files';
import { isPathInside } from '../lib';
import { protectedLocations } from './protected-locations';
import { refuseUnsafeRoots } from './root-rules';
import type { WorkspaceContext } from './workspace-context';

/** A path an agent gave, resolved and approved. */
export interface WorkspacePath {
  /** The real location: symlinks followed at every depth, `~` expanded, relative to the session's cwd. */
  readonly absolute: string;
  /** The workspace root that contains it (the innermost one when roots nest), resolved. */
  readonly root: string;
}

/** Expands a leading `~` to the home directory; `~user` is refused, as it names someone else's home. */
function expandHome(input: string, homeDir: string): string {
  if (input === '~') return homeDir;
  if (input.startsWith('~/') || (process.platform === 'win32' && input.startsWith('~\\')))
    return path.join(homeDir, input.slice(2));
  if (input.startsWith('~')) {
    throw new AppError(
      'invalid_request',
      `The path "${input}" names another user's home directory; use a path inside the workspace.`,
      { path: input },
    );
  }
  return input;
}

/**
 * Resolves a path an agent gave — `~`, relative to the session's cwd, `..`, symlinks at any depth
 * (the realpath of the deepest existing ancestor, dangling links followed) — and approves it only
 * if it lands inside one of the session's workspace roots (`outside_workspace`, naming the roots)
 * and outside every credential and system location (`forbidden_path`, even inside a root). A
 * session whose roots include one that is no project folder (`/`, the home folder …) gets
 * `forbidden_path` for every path (`refuseUnsafeRoots`).
 * NUL bytes and empty paths are refused (`invalid_request`).
 */
export async function resolveWorkspacePath(input: string, context: WorkspaceContext): Promise<WorkspacePath> {
  if (input === '')
    throw new AppError('invalid_request', 'The path is empty; give the path of a file inside the workspace.', {
      path: input,
    });
  if (input.includes('\0')) {
    throw new AppError(
      'invalid_request',
      'The path contains a NUL byte, which no file name may contain; nothing was read or written.',
      { path: input },
    );
  }
  refuseUnsafeRoots(context.roots, { home: context.homeDir, protectedPaths: context.protectedPaths ?? [] });
  const expanded = expandHome(input, context.homeDir);
  const lexical = path.isAbsolute(expanded) ? expanded : `${context.cwd}${path.sep}${expanded}`;
  const [absolute, home, roots, extra] = await Promise.all([
    canonicalPath(lexical),
    canonicalPath(context.homeDir),
    Promise.all(context.roots.map((root) => canonicalPath(root))),
    Promise.all((context.protectedPaths ?? []).map((location) => canonicalPath(location))),
  ]);
  const viaLink = absolute === path.resolve(lexical) ? '' : ' (through a symbolic link)';
  const guarded = protectedLocations(
    [...new Set([path.resolve(context.homeDir), home])],
    [...(context.protectedPaths ?? []), ...extra],
  );
  for (const location of guarded) {
    if (isPathInside(absolute, location.path) || isPathInside(path.resolve(lexical), location.path)) {
      throw new AppError(
        'forbidden_path',
        `The path "${input}" resolves to ${absolute}${viaLink}, inside ${location.path} (${location.reason}), which agents may not read or write, even inside a workspace root.`,
        { path: input, resolved: absolute, protected: location.path },
      );
    }
  }
  const root = roots.filter((candidate) => isPathInside(absolute, candidate)).sort((a, b) => b.length - a.length)[0];
  if (root === undefined) {
    throw new AppError(
      'outside_workspace',
      `The path "${input}" resolves to ${absolute}${viaLink}, which is outside the workspace (${roots.length === 0 ? 'the session has no workspace roots' : `roots: ${roots.join(', ')}`}). Use a path inside a workspace root.`,
      { path: input, resolved: absolute, roots },
    );
  }
  return { absolute, root };
}
