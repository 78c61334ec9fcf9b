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
 *
 * Linux only (bubblewrap mounts at wrap time, so an absent name is never hidden there anyway). On
 * macOS the engine writes a Seatbelt rule for every entry, checked at each access: a store created
 * while a command runs is hidden from it, so every entry is kept.
 */
export async function readDeniesPresent(
  denyRead: readonly string[],
  engineWriteDefaults: () => readonly string[] | Promise<readonly string[]>,
  platform: NodeJS.Platform = process.platform,
): Promise<string[]> {
  if (platform !== 'linux') return [...denyRead];
  // Every name is looked at while the defaults are still being found: one round of the thread pool.
  const looks = denyRead.map((entry) => (isPlain(entry) ? isThere(entry) : Promise.resolve(true)));
  const defaults = await engineWriteDefaults();
  const isKept = await Promise.all(
    denyRead.map(
      async (entry, index) =>
        !isPlain(entry) ||
        defaults.some((candidate) => isAtOrAbove(entry, candidate)) ||
        ((await looks[index]) ?? true),
    ),
  );
  return denyRead.filter((_entry, index) => isKept[index]);
}

/** Characters the engine reads as a glob in a path (its containsGlobChars, Linux). */
const globCharacters = /[*?[\]]/u;

function isAtOrAbove(entry: string, candidate: string): boolean {
  return candidate === entry || candidate.startsWith(`${entry}/`);
}

/** An absolute path in plain form, not read as a pattern: the only kind left out when it is not there. */
function isPlain(entry: string): boolean {
  return (
    path.isAbsolute(entry) &&
    path.normalize(entry) === entry &&
    entry !== '/' &&
    !entry.endsWith('/') &&
    !globCharacters.test(entry)
  );
}

/** Whether anything is at the name (a dangling link counts), or it cannot be looked at. */
function isThere(entry: string): Promise<boolean> {
  return lstat(entry).then(
    () => true,
    (error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      return code !== 'ENOENT' && code !== 'ENOTDIR';
    },
  );
}
