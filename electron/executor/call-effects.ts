import { errnoCode, readLiveFile } from '../files';
import type { CallEffect } from '../../shared/contract/sessions-contract';
import { countLines, isBinary, lineChanges } from '../checkpoints';
import type { FileEffect } from './command-effects';

/** Files up to this size are read to count the lines a call added and removed; bigger ones are counted as changed only. */
const maxCountedBytes = 1024 * 1024;
/** The most effects one call records; the rest are counted. */
export const maxRecordedEffects = 200;

/** A file's content before a call: the bytes, `missing`, or `uncounted` (too big, unreadable, not a file). */
export type ContentBefore = Uint8Array | 'missing' | 'uncounted';

/**
 * A file's content when it is small enough to count its lines: `uncounted` when it is not a regular
 * file (a symlink is not followed; a FIFO an agent put there is never waited on) or cannot be read.
 */
export async function readCountable(file: string): Promise<ContentBefore> {
  try {
    const read = await readLiveFile(file, { maxBytes: maxCountedBytes });
    return read.kind === 'read' ? read.content : 'uncounted';
  } catch (error) {
    const code = errnoCode(error);
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'uncounted';
  }
}

/** The contents of the files a call is about to change, read before it runs. */
export async function readBefore(files: readonly string[]): Promise<ReadonlyMap<string, ContentBefore>> {
  return new Map(await Promise.all(files.map(async (file) => [file, await readCountable(file)] as const)));
}

/** Lines added and removed between two versions, when both are text Vigil could read. */
function counts(before: ContentBefore, after: ContentBefore): Pick<CallEffect, 'added' | 'removed'> {
  if (after === 'uncounted' || before === 'uncounted') return {};
  if (after === 'missing')
    return before === 'missing' || isBinary(before) ? {} : { added: 0, removed: countLines(before) };
  if (isBinary(after)) return {};
  if (before === 'missing') return { added: countLines(after), removed: 0 };
  if (isBinary(before)) return {};
  const changes = lineChanges(before, after);
  return { added: changes.insertions, removed: changes.deletions };
}

/** What a file tool changed: each written file as created or modified, with its lines counted against the content read before. */
export async function fileToolEffects(before: ReadonlyMap<string, ContentBefore>): Promise<CallEffect[]> {
  const effects: CallEffect[] = [];
  for (const [file, old] of before) {
    const now = await readCountable(file);
    if (now === 'missing') continue;
    effects.push({ path: file, change: old === 'missing' ? 'created' : 'modified', ...counts(old, now) });
  }
  return effects;
}

/**
 * What a command changed, from the walks before and after it: created files have their lines
 * counted (nothing was there before); for changed and deleted ones the earlier content was not
 * read, so only the change is known.
 */
export async function commandEffects(found: readonly FileEffect[]): Promise<CallEffect[]> {
  const effects: CallEffect[] = [];
  for (const effect of found.slice(0, maxRecordedEffects)) {
    effects.push({
      path: effect.path,
      change: effect.change,
      ...(effect.change === 'created' ? counts('missing', await readCountable(effect.path)) : {}),
    });
  }
  return effects;
}
