import { lstat, mkdir, mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';

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
