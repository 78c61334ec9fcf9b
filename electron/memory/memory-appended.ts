import type { AppendedText } from '../../shared/contract/memory-contract';
import { AppError } from '../../shared/errors';
import type { MemoryFileSnapshot } from './memory-file';
import type { ParsedSnapshot } from './memory-file-state';
import { collapseDuplicates } from './memory-format';
import type { ChangeDecision } from './guarded-change';
import { refuseThreat } from './memory-operations';
import { previewText, pythonStrip } from './memory-text';
import { entryDigest } from './memory-write-record';

/**
 * Finds text appended outside Vigil after the last entry (`echo "- note" >> MEMORY.md`). Hermes
 * reads it as part of that entry, which is no drift and loses nothing, but the user meant a new
 * entry. The entry it was is known from the version before (`previous`, when a change was seen) or
 * from the entries Vigil wrote itself (`authored`: digests from the write record, for text after a
 * line break). Null when the last entry is not an earlier entry with text added.
 *
 * An entry Vigil wrote is at most the file's `limit` characters (a longer one is drift), so only
 * line breaks within twice that many UTF-16 units are tried: a 1 MB entry costs one pass over its
 * first few kilobytes, not a digest of every one of its prefixes.
 */
export function findAppendedText(
  entries: readonly string[],
  previous: readonly string[] | undefined,
  authored: ReadonlySet<string>,
  limit: number,
): AppendedText | null {
  const entry = entries.at(-1);
  if (entry === undefined) return null;
  const before = previous?.at(-1);
  let original: string | undefined;
  if (before !== undefined && previous?.includes(entry) !== true && entry.startsWith(before)) original = before;
  for (
    let index = entry.lastIndexOf('\n', 2 * limit);
    original === undefined && index > 0;
    index = entry.lastIndexOf('\n', index - 1)
  ) {
    const prefix = pythonStrip(entry.slice(0, index));
    if (prefix !== '' && authored.has(entryDigest(prefix))) original = prefix;
  }
  if (original === undefined || original === '') return null;
  const appended = pythonStrip(entry.slice(original.length));
  return appended === '' ? null : { entry, original, appended };
}

/**
 * The decision of "keep as a new entry": the entry that text was appended to becomes the entry it
 * was plus the appended text as an entry of its own, if the file is still the version the user saw.
 * Nothing leaves the file, so no backup is needed, and the limit is not checked (the text is already there).
 */
export function decideKeepAppended(basis: string, entry: string, original: string, fileName: string) {
  return (current: ParsedSnapshot, snapshot: MemoryFileSnapshot): ChangeDecision => {
    const position = current.version.entries.indexOf(entry);
    if (snapshot.sha256 !== basis || position === -1) {
      throw new AppError(
        'conflict',
        `${fileName} changed since the appended text was shown; nothing was written. Look at the file again and retry.`,
        { basis, current: snapshot.sha256 },
      );
    }
    const appended = pythonStrip(entry.slice(original.length));
    if (original === '' || !entry.startsWith(original) || appended === '') {
      throw new AppError(
        'invalid_request',
        `"${previewText(original, 40)}" is not the start of that entry with text after it (field "original"). Nothing was written.`,
        { field: 'original' },
      );
    }
    refuseThreat(appended, 'entry');
    const split = [...current.version.entries];
    split.splice(position, 1, original, appended);
    return {
      entries: collapseDuplicates(split),
      applied: [
        { action: 'replace', outcome: 'replaced', entry: original },
        { action: 'add', outcome: 'added', entry: appended },
      ],
      isChanged: true,
      discarded: [],
      message: `Kept "${previewText(appended, 60)}" as an entry of its own.`,
    };
  };
}
