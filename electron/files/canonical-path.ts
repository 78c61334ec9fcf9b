import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { errnoCode, fileSystemError } from './file-system-error';

/** Symbolic links followed before a path is declared a loop (Linux's own limit). */
const maxLinks = 40;

/** The separators of path text on this platform. */
const separators = process.platform === 'win32' ? /[\\/]+/u : /\/+/u;

/** Splits path text into its root and raw components, keeping `.` and `..` for physical resolution. */
function splitPath(text: string): { readonly root: string; readonly parts: string[] } {
  const { root } = path.parse(text);
  return {
    root,
    parts: text
      .slice(root.length)
      .split(separators)
      .filter((part) => part !== ''),
  };
}

/**
 * The target of the link at `link`, or undefined when it is no longer a link (another program
 * replaced or removed it just now; the caller looks again, counting the retry as a link).
 */
async function readLink(link: string, input: string): Promise<string | undefined> {
  try {
    return await readlink(link);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EINVAL' || code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw fileSystemError(error, 'resolve', input);
  }
}

/**
 * The real location a path names, the way the kernel would reach it when creating a file there:
 * every symlink is followed at any depth (dangling ones too, since a write through them lands at
 * their target), `..` is taken physically after each link, and components that do not exist yet
 * are appended as they are. `from` anchors a relative path (default: the process's cwd).
 */
export async function canonicalPath(input: string, from = process.cwd()): Promise<string> {
  const raw = path.isAbsolute(input) ? input : `${from}${path.sep}${input}`;
  try {
    return await realpath(raw);
  } catch (error) {
    const code = errnoCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw fileSystemError(error, 'resolve', input);
  }
  const start = splitPath(raw);
  let resolved = start.root;
  const pending = start.parts;
  let links = 0;
  let isMissing = false;
  for (let part = pending.shift(); part !== undefined; part = pending.shift()) {
    if (part === '.') continue;
    if (part === '..') {
      resolved = path.dirname(resolved);
      continue;
    }
    const next = path.join(resolved, part);
    if (isMissing) {
      resolved = next;
      continue;
    }
    let isLink: boolean;
    try {
      isLink = (await lstat(next)).isSymbolicLink();
    } catch (error) {
      const code = errnoCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw fileSystemError(error, 'resolve', input);
      isMissing = true;
      resolved = next;
      continue;
    }
    if (!isLink) {
      resolved = next;
      continue;
    }
    links += 1;
    if (links > maxLinks) {
      throw new AppError(
        'io_error',
        `Could not resolve ${input}: more than ${maxLinks} symbolic links (a symlink loop, or links changing while it was resolved).`,
        { path: input, errno: 'ELOOP' },
      );
    }
    const target = await readLink(next, input);
    if (target === undefined) {
      // It stopped being a link between the lstat and the readlink: look at it again.
      pending.unshift(part);
      continue;
    }
    const link = splitPath(target);
    if (path.isAbsolute(target)) resolved = link.root;
    pending.unshift(...link.parts);
  }
  return resolved;
}
