import { lstat, mkdir, mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import type { SandboxStatus } from './sandbox-availability';

/** Makes a session's private temp folder (mode 0700) under `tempRoot`, which must be a folder of this user. */
export async function makeSessionTemp(tempRoot: string, sessionId: string): Promise<string> {
  await mkdir(tempRoot, { recursive: true, mode: 0o700 });
  const stats = await lstat(tempRoot);
  const isOwn = typeof process.getuid !== 'function' || stats.uid === process.getuid();
  if (!stats.isDirectory() || !isOwn) {
    throw new AppError(
      'conflict',
      `The sandbox's temp folder ${tempRoot} is not a folder of this user; remove it and try again. Nothing was run.`,
      { path: tempRoot },
    );
  }
  return mkdtemp(path.join(tempRoot, `${sessionId.replace(/[^A-Za-z0-9_-]/gu, '_').slice(0, 40)}-`));
}

/** Why commands cannot run when Vigil cannot make its private temp folder: not the sandbox's fault, and what to do. */
export function tempFolderFailure(tempRoot: string, error: unknown): SandboxStatus {
  const said = error instanceof Error ? error.message : String(error);
  return {
    kind: 'unavailable',
    reason: `Vigil could not make a private temp folder for sandboxed commands under ${tempRoot} (${said}); the sandbox itself was not tried`,
    fix: `make ${tempRoot} (or its parent) a writable folder with free space, or point TMPDIR at one, then try again`,
  };
}
