import { lstat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The read denies of a command's profile that can change what the sandbox engine builds, checked on
 * the disk just before its wrap. Most of a profile's read denies name credential stores the user
 * does not have (26 of 28 on a plain home): the engine mounts nothing for a path that is not there,
 * yet resolves each one, links and all, several times per wrap (a third of its work). A deny whose
 * name is not there at all (`lstat`: ENOENT or ENOTDIR) is left out; the engine would have found the
 * same a moment later and mounted nothing for it. Kept whatever the disk says:
 *
 * - an entry the engine reads as a pattern (`*`, `?`, `[`, `]`), or not in plain absolute form;
 * - an entry at or above one of the engine's own default write paths (`~/.npm/_logs`,
 *   `~/.claude/debug` …): the engine leaves such a default out only while a read deny covers it;
 * - an entry that is there in any form (a dangling link included), or cannot be looked at.
 *
 * Nothing is remembered between wraps: a credential store made after one command is hidden from the
 * next, as before.
 */
export async function readDeniesPresent(
  denyRead: readonly string[],
  engineWriteDefaults: readonly string[],
): Promise<string[]> {
  const isKept = await Promise.all(denyRead.map((entry) => mayMatter(entry, engineWriteDefaults)));
  return denyRead.filter((_entry, index) => isKept[index]);
}

/** Characters the engine reads as a glob in a path (its containsGlobChars, Linux). */
const globCharacters = /[*?[\]]/u;

function isAtOrAbove(entry: string, candidate: string): boolean {
  return candidate === entry || candidate.startsWith(`${entry}/`);
}

async function mayMatter(entry: string, engineWriteDefaults: readonly string[]): Promise<boolean> {
  const isPlain = path.isAbsolute(entry) && path.normalize(entry) === entry && entry !== '/' && !entry.endsWith('/');
  if (!isPlain || globCharacters.test(entry)) return true;
  if (engineWriteDefaults.some((candidate) => isAtOrAbove(entry, candidate))) return true;
  return lstat(entry).then(
    () => true,
    (error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      return code !== 'ENOENT' && code !== 'ENOTDIR';
    },
  );
}
