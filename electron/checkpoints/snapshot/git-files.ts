import type { Stats } from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import { readLiveFile, readLiveText } from '../../files';

// git's own files in a workspace (its config, ignore files, index), read as git reads them but never
// waiting on a FIFO the workspace's owner put at one.

/**
 * A git file's bytes (followed through a symlink, as git does for its index, config and excludes
 * files; not with `followsSymlink` false, as for a work tree's `.gitignore`), never waiting on a
 * FIFO the workspace's owner put there: `folder`, `special` for a FIFO or device, `symlink` for a
 * link not followed. Errors are thrown as they are.
 */
export async function readGitFile(
  file: string,
  followsSymlink = true,
  maxBytes?: number,
): Promise<Buffer | 'folder' | 'special' | 'symlink' | 'oversize'> {
  const read = await readLiveFile(file, { followsSymlink, ...(maxBytes !== undefined && { maxBytes }) });
  if (read.kind === 'read') return read.content;
  if (read.kind === 'oversize') return 'oversize';
  if (read.kind === 'changed') return 'symlink';
  return read.kind === 'special' && read.stats.isDirectory() ? 'folder' : 'special';
}

/**
 * Past this, a git text file (a config, `commondir`) is left unread: the workspace's owner can make
 * one of any size (a sparse one costs no disk), and a nested repository's is read at every checkpoint.
 */
const maxGitTextBytes = 16 << 20;

/** A git file's text, or '' when it is missing, unreadable, not a regular file or too large (`maxGitTextBytes`). */
export async function readGitText(file: string): Promise<string> {
  return (await readLiveText(file, { followsSymlink: true, maxBytes: maxGitTextBytes })) ?? '';
}

/** `core.excludesFile` from a git config text (the last one set wins), `~/` expanded. */
export function excludesFileIn(text: string, home: string): string | undefined {
  let section = '';
  let found: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[([^\]\s"]+)/.exec(line);
    if (header !== null) section = (header[1] ?? '').toLowerCase();
    else if (section === 'core') {
      const setting = /^excludesfile\s*=\s*(.*)$/i.exec(line);
      if (setting !== null) found = (setting[1] ?? '').replace(/^"(.*)"$/, '$1').trim();
    }
  }
  if (found === undefined || found === '') return undefined;
  return found.startsWith('~/') ? path.join(home, found.slice(2)) : found;
}

/** git's own limit on an ignore file (dir.c, `PATTERN_MAX_FILE_SIZE`): git warns and uses none of a larger one. */
const maxPatternFileBytes = 100 << 20;

/**
 * The patterns of one ignore file, or why they cannot be used (undefined: there is no such file). A
 * `.gitignore` in the work tree is not followed through a symlink (`isInWorkTree`): git (2.32+) refuses it.
 * One over git's own limit is not read, as git does not (a text over 512 MB failed the checkpoint).
 */
export async function readPatterns(
  file: string,
  isInWorkTree = false,
): Promise<{ patterns: string } | { problem: string } | undefined> {
  let bytes: Buffer | 'folder' | 'special' | 'symlink' | 'oversize';
  try {
    bytes = await readGitFile(file, !isInWorkTree, maxPatternFileBytes);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    return { problem: `cannot be read (${code ?? 'error'})` };
  }
  if (bytes === 'folder') return undefined;
  if (bytes === 'oversize')
    return { problem: 'is larger than 100 MiB, which git refuses for an ignore file (none of it applies, as in git)' };
  if (bytes === 'special') return { problem: 'cannot be read (it is not a regular file: a FIFO or device)' };
  if (bytes === 'symlink')
    return { problem: 'is a symbolic link, which git does not follow for a .gitignore (none of it applies)' };
  if (bytes.includes(0)) return { problem: 'cannot be parsed (it holds NUL bytes: not a text file)' };
  const patterns = bytes.toString('utf8');
  if (patterns.includes('\uFFFD')) return { problem: 'cannot be parsed (it is not valid UTF-8)' };
  try {
    ignore().add(patterns).test('probe');
  } catch (error) {
    return { problem: `cannot be parsed (${error instanceof Error ? error.message : String(error)})` };
  }
  return { patterns };
}

/** Whether an ignore file holds a pattern: a line that is neither blank nor a comment (kept when unsure). */
export function holdsPatterns(patterns: string): boolean {
  return patterns.split('\n').some((line) => line.trim() !== '' && !line.startsWith('#'));
}

/** git's own limit on a `.git` file (setup.c, `read_gitfile_gov`): a larger one names no git directory. */
const maxGitFileBytes = 1 << 20;

/**
 * What `folder/.git` names: its git directory (a `.git` folder, or a `.git` file saying where), or
 * undefined. A `.git` file over git's own limit is not read: any folder a walk meets may hold one, and
 * a huge one (a sparse file costs no disk) made every checkpoint read it whole, then fail.
 */
export async function gitdirAt(folder: string, info: Stats | undefined): Promise<string | undefined> {
  const dotGit = path.join(folder, '.git');
  if (info?.isDirectory() === true) return dotGit;
  if (info?.isFile() !== true) return undefined;
  const text = (await readLiveText(dotGit, { followsSymlink: true, maxBytes: maxGitFileBytes })) ?? '';
  // As git reads a .git file: the path runs to the end of the line (spaces kept), a CR before it dropped.
  const named = /^gitdir: (.+)$/m.exec(text)?.[1]?.replace(/\r$/, '');
  return named === undefined ? undefined : path.resolve(folder, named);
}
