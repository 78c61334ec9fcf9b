import { createHash } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import { createExclusive, isSameVersion, observeFile, replaceFile, type ObservedFile } from './lock-file-ops';
import type { LockHolder } from './lock-holder';

/** Why a lock file (or a takeover claim) seen as `observed` counts as abandoned, or undefined while its holder lives. */
export type StaleCheck = (observed: ObservedFile) => Promise<string | undefined>;

/**
 * Replaces `file` (the lock, or a takeover claim) — seen abandoned as `observed` — with our
 * record, so that exactly one process ever does it for that abandoned version: each contender
 * must first create the claim `<file>.takeover-<token of the abandoned holder>` (exclusively),
 * then finds the file still that very version (same inode and content), and renames its own
 * record over it: the lock file never goes missing, so nobody can slip in by creating it anew.
 * A claim whose maker died is itself taken over the same way (one level deeper).
 */
export async function replaceAbandoned(
  file: string,
  observed: ObservedFile,
  holder: LockHolder,
  isStale: StaleCheck,
  depth = 0,
): Promise<boolean> {
  const token = observed.holder?.token;
  const key =
    token !== undefined && /^[\w-]{1,64}$/.test(token)
      ? token
      : createHash('sha256').update(`${observed.ino}\0${observed.raw}`).digest('hex').slice(0, 24);
  const claim = `${file}.takeover-${key}`;
  const record = JSON.stringify(holder);
  if (!(await createExclusive(claim, record))) {
    // Another process is taking it over (wait for it), or died doing so (take its claim over).
    const other = await observeFile(claim);
    if (depth >= 2 || other === undefined || (await isStale(other)) === undefined) return false;
    if (!(await replaceAbandoned(claim, other, holder, isStale, depth + 1))) return false;
  }
  try {
    if (!isSameVersion(observed, await observeFile(file))) return false;
    await replaceFile(file, record);
    return true;
  } finally {
    await unlink(claim).catch(() => undefined);
  }
}
