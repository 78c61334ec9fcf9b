import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../shared/errors';

/** Where an MCP session's workspace comes from, for messages and the log. */
export interface McpWorkspaceHint {
  /** The `?cwd=` of the /mcp URL (or `vigil mcp --cwd`), absolute. */
  readonly cwd: string | undefined;
}

/** The local paths of a client's MCP roots; roots that are not `file:` URIs are ignored. */
export function pathsOfMcpRoots(roots: readonly { readonly uri: string }[]): string[] {
  const paths: string[] = [];
  for (const root of roots) {
    if (!root.uri.startsWith('file:')) continue;
    try {
      paths.push(path.resolve(fileURLToPath(root.uri)));
    } catch {
      // A malformed file URI names no directory we could supervise.
    }
  }
  return [...new Set(paths)];
}

/** Reads the `cwd` query parameter of the /mcp URL: absent, or an absolute path. */
export function readCwdParameter(value: string | null): string | undefined {
  if (value === null || value === '') return undefined;
  if (!path.isAbsolute(value)) {
    throw new AppError(
      'invalid_request',
      `The "cwd" parameter of the /mcp URL must be an absolute path, not "${value}".`,
      {
        field: 'cwd',
      },
    );
  }
  return path.resolve(value);
}

/** The error a client gets at its first tool call when it gave Vigil no workspace at all. */
export function noWorkspaceError(): AppError {
  return new AppError(
    'outside_workspace',
    "Vigil does not know this session's workspace: the MCP client reported no file roots (roots/list) " +
      'and the /mcp URL has no "cwd" parameter. Add ?cwd=/absolute/path/to/project to the URL ' +
      '(or start the bridge with "vigil mcp --cwd /absolute/path/to/project"), then reconnect.',
    { field: 'cwd' },
  );
}
