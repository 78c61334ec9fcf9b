import type { AppliedOperation, MemoryOperation } from '../../shared/contract/memory-contract';
import { AppError } from '../../shared/errors';
import { findLoneSurrogate } from '../../shared/tools/lone-surrogate';
import { entriesChars, entryDelimiter, usageOf } from './memory-format';
import {
  countChars,
  formatCount,
  previewText,
  pythonStrip,
  refuseControlCharacters,
  universalNewlines,
} from './memory-text';
import { findThreat } from './memory-threats';

/** What the operations are applied to and how failures name things. */
export interface OperationContext {
  /** `MEMORY.md` or `USER.md`, for messages. */
  readonly fileName: string;
  readonly limit: number;
  /** The request field of an operation's property, such as `operation.operations.2.content`. */
  readonly fieldOf: (index: number, property: 'content' | 'oldText') => string;
}

/** The state after a mutation's operations. */
export interface OperationOutcome {
  readonly entries: readonly string[];
  readonly applied: readonly AppliedOperation[];
  /** Whether the entries differ from the ones the operations started from. */
  readonly isChanged: boolean;
  /** Entries that left the file (replaced or removed), as they read before. */
  readonly discarded: readonly string[];
}

/**
 * Refuses text the memory scan blocks (`denied`, naming the pattern): Hermes Agent's own patterns
 * (Hermes would keep the entry out of its system prompt, so it would only take space), and Vigil's
 * additions (text a reader cannot see, look-alike spellings, URLs that carry data out).
 */
export function refuseThreat(text: string, field: string): void {
  const threat = findThreat(text);
  if (threat === undefined) return;
  const why =
    threat.source === 'hermes'
      ? `The text matches Hermes Agent's threat pattern "${threat.pattern}": ${threat.what} (field "${field}"). Memory goes into the agent's system prompt, and Hermes blocks entries like this one, so it would take space and never be seen.`
      : `The text matches Vigil's memory threat pattern "${threat.pattern}": ${threat.what} (field "${field}"). Memory goes into every later session's system prompt, and this is how injected instructions hide or send data out.`;
  throw new AppError('denied', `${why} Nothing was written; write the fact without it, or leave it out.`, {
    field,
    pattern: threat.pattern,
  });
}

/** Strips and checks the text of an operation; empty or delimiter-bearing text is refused, naming the field. */
function cleanText(raw: string, field: string, what: string, fileName: string): string {
  // Written as is, `\r\n` would read back as `\n` (Hermes reads with universal newlines): store what will be read.
  const text = pythonStrip(universalNewlines(raw));
  if (text === '') {
    throw new AppError(
      'invalid_request',
      `${what} is empty (field "${field}"). ${what === 'content' ? 'Use remove to delete an entry.' : 'Give a substring of the entry to change.'}`,
      { field },
    );
  }
  const lone = findLoneSurrogate(text);
  if (lone !== -1) {
    throw new AppError(
      'invalid_request',
      `${what} holds a lone UTF-16 surrogate at index ${lone} (field "${field}"), which has no UTF-8 form. Send well-formed text.`,
      { field },
    );
  }
  if (what === 'content') refuseThreat(text, field);
  if (what === 'content' && text.includes(entryDelimiter)) {
    throw new AppError(
      'invalid_request',
      `content has a line holding only "§" (field "${field}"); that line separates entries in ${fileName}, so the entry would split in two. Add each part as its own entry.`,
      { field },
    );
  }
  // Checked after universal newlines: a CR of a CRLF (or a lone CR) is a line break Hermes reads as one, not a control character.
  if (what === 'content') refuseControlCharacters(universalNewlines(raw), field, what);
  return text;
}

/** Where the one entry containing `needle` is; refuses with the current entries or 80-character previews. */
function findUnique(entries: readonly string[], needle: string, index: number, context: OperationContext): number {
  const matches = entries.flatMap((entry, position) => (entry.includes(needle) ? [position] : []));
  const shown = JSON.stringify(previewText(needle));
  const details = { operation: index, usage: usageOf(entries, context.limit), entries: [...entries] };
  if (matches.length === 0) {
    throw new AppError(
      'no_match',
      `No entry in ${context.fileName} contains ${shown}. Nothing was changed; pick a substring of one of the current entries (listed in the details) and retry.`,
      details,
    );
  }
  const [only] = matches;
  if (matches.length > 1 || only === undefined) {
    throw new AppError(
      'ambiguous_match',
      `${matches.length} entries in ${context.fileName} contain ${shown}. Nothing was changed; use a longer substring that only one entry contains.`,
      { ...details, matches: matches.map((position) => previewText(entries[position] ?? '')) },
    );
  }
  return only;
}

/**
 * Applies operations in order to a copy of the entries, each seeing the result of the previous
 * ones, with the `memory` tool's semantics: an exact duplicate add is a no-op that says so;
 * replace and remove act on the one entry containing a substring, replacing it whole. The limit
 * is checked once, against the final state: it is exceeded when the result is over the limit
 * and larger than what the file held (so shrinking a file that is already over stays possible).
 * Any failure throws and nothing is applied: all or nothing.
 */
export function applyOperations(
  start: readonly string[],
  operations: readonly MemoryOperation[],
  context: OperationContext,
): OperationOutcome {
  const entries = [...start];
  const applied: AppliedOperation[] = [];
  const discarded: string[] = [];
  operations.forEach((operation, index) => {
    switch (operation.action) {
      case 'add': {
        const content = cleanText(operation.content, context.fieldOf(index, 'content'), 'content', context.fileName);
        if (entries.includes(content)) applied.push({ action: 'add', outcome: 'already-present', entry: content });
        else {
          entries.push(content);
          applied.push({ action: 'add', outcome: 'added', entry: content });
        }
        return;
      }
      case 'replace': {
        const needle = cleanText(operation.oldText, context.fieldOf(index, 'oldText'), 'oldText', context.fileName);
        const content = cleanText(operation.content, context.fieldOf(index, 'content'), 'content', context.fileName);
        const position = findUnique(entries, needle, index, context);
        const old = entries[position] ?? '';
        if (old === content) {
          applied.push({ action: 'replace', outcome: 'unchanged', entry: content });
          return;
        }
        discarded.push(old);
        // Replacing with the text of another entry merges the two: duplicates never reach the file.
        if (entries.includes(content)) entries.splice(position, 1);
        else entries[position] = content;
        applied.push({ action: 'replace', outcome: 'replaced', entry: content });
        return;
      }
      case 'remove': {
        const needle = cleanText(operation.oldText, context.fieldOf(index, 'oldText'), 'oldText', context.fileName);
        const position = findUnique(entries, needle, index, context);
        const [old = ''] = entries.splice(position, 1);
        discarded.push(old);
        applied.push({ action: 'remove', outcome: 'removed', entry: old });
        return;
      }
    }
  });
  const before = entriesChars(start);
  const after = entriesChars(entries);
  if (after > context.limit && after > before) {
    const added = applied.find((item) => item.outcome === 'added');
    const single = operations.length === 1 && added !== undefined;
    const what = single
      ? `adding this entry (${formatCount(countChars(added.entry))} characters)`
      : `these ${operations.length === 1 ? 'changes' : `${operations.length} operations`}`;
    throw new AppError(
      'limit_exceeded',
      `${context.fileName} is at ${formatCount(before)}/${formatCount(context.limit)} characters; ${what} would put it at ${formatCount(after)}. Nothing was changed; replace or remove entries first, or shorten the new text.`,
      { usage: usageOf(start, context.limit), wouldBe: after, entries: [...start] },
    );
  }
  const isChanged = entries.length !== start.length || entries.some((entry, position) => entry !== start[position]);
  return { entries, applied, isChanged, discarded };
}
