import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { lazySchema } from '../../shared/lazy-schema';
import { sessionIdSchema } from '../../shared/contract/sessions-contract';
import { AppError } from '../../shared/errors';
import { parseOrThrow } from '../../shared/validation';
import { canonicalPath } from '../files';
import { isPathInside } from '../lib';

/** The schema `open` validates with (the gateway's frames are validated against its own). */
export const openSessionRequestSchema = lazySchema(() =>
  z
    .object({
      agent: z.string().trim().min(1, { message: 'is empty; name the agent (claude-code, hermes, …)' }).max(200),
      roots: z.array(z.string().min(1)).max(64),
      cwd: z.string().min(1).optional(),
      client: z.string().max(200).optional(),
      transcriptPath: z.string().min(1).max(4096).optional(),
      sessionId: sessionIdSchema.optional(),
    })
    .strict(),
);

/** Where a session may work: resolved roots and cwd. */
export interface SessionPlace {
  readonly roots: readonly string[];
  readonly cwd?: string;
}

async function resolveDirectory(input: string, base: string | undefined, field: string): Promise<string> {
  if (!path.isAbsolute(input) && base === undefined) {
    throw new AppError(
      'invalid_request',
      `The ${field} "${input}" is relative, but there is no folder to resolve it against; give an absolute path.`,
      { field, path: input },
    );
  }
  const resolved = await canonicalPath(path.isAbsolute(input) ? input : path.resolve(base ?? '', input));
  const isDirectory = await stat(resolved).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
  if (!isDirectory) {
    throw new AppError(
      'not_found',
      `The ${field} ${resolved} is not an existing folder; create it or give another one.`,
      { field, path: resolved },
    );
  }
  return resolved;
}

/**
 * Resolves a session's roots and cwd: every root must be an existing folder (symlinks resolved,
 * duplicates dropped); a relative cwd is relative to the first root; the cwd must be inside a root
 * and defaults to the first one. A cwd with no roots makes the cwd the only root.
 */
export async function resolveSessionPlace(
  roots: readonly string[],
  cwd: string | undefined,
  from?: string,
): Promise<SessionPlace> {
  const resolvedRoots = [
    ...new Set(await Promise.all(roots.map((root, index) => resolveDirectory(root, from, `root ${index + 1}`)))),
  ];
  if (cwd === undefined)
    return resolvedRoots[0] === undefined ? { roots: [] } : { roots: resolvedRoots, cwd: resolvedRoots[0] };
  const resolvedCwd = await resolveDirectory(cwd, resolvedRoots[0] ?? from, 'cwd');
  if (resolvedRoots.length === 0) return { roots: [resolvedCwd], cwd: resolvedCwd };
  if (!resolvedRoots.some((root) => isPathInside(resolvedCwd, root))) {
    throw new AppError(
      'outside_workspace',
      `The cwd ${resolvedCwd} is outside the session's roots (${resolvedRoots.join(', ')}); give a cwd inside one of them.`,
      {
        field: 'cwd',
        path: resolvedCwd,
        roots: resolvedRoots,
      },
    );
  }
  return { roots: resolvedRoots, cwd: resolvedCwd };
}

/** Validates an open request at the service's edge. */
export function parseOpenSessionRequest(request: unknown): z.output<typeof openSessionRequestSchema> {
  return parseOrThrow(openSessionRequestSchema, request, 'Cannot open the session');
}
