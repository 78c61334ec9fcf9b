import { AppError } from '../../../shared/errors';

/** What a user typed to name a checkpoint: its number in the list (1 = newest) or a hex id prefix. */
export type CheckpointRef =
  | {
      readonly kind: 'number';
      readonly number: number;
      /** 4 or more digits may also start an id (ids are hex): the prefix to try when the number is past the list. */
      readonly prefix?: string;
    }
  | { readonly kind: 'id'; readonly prefix: string };

/** The number of a recently dropped checkpoint a user typed (`d1` = the newest dropped), or undefined. */
export function droppedNumberOf(value: string): number | undefined {
  const match = /^d(\d{1,6})$/i.exec(value.trim());
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/**
 * Parses a checkpoint reference from a user (CLI argument, UI): `N` (1 = newest, as in the seed's
 * /rollback list) or 4–40 hex characters of an id. Anything else — an option-looking `-x`, a
 * non-hex string — is refused with a message that says what is expected.
 */
export function parseCheckpointRef(value: string): CheckpointRef {
  const text = value.trim();
  if (text.startsWith('-')) {
    throw new AppError(
      'invalid_request',
      `"${value}" is not a checkpoint: give its number from "vigil checkpoints list" (1 = newest) or its id (hex).`,
      { field: 'checkpoint' },
    );
  }
  if (/^\d{1,3}$/.test(text)) return { kind: 'number', number: Number(text) };
  if (/^\d{4,40}$/.test(text)) return { kind: 'number', number: Number(text), prefix: text };
  if (/^[0-9a-fA-F]{4,40}$/.test(text)) return { kind: 'id', prefix: text.toLowerCase() };
  throw new AppError(
    'invalid_request',
    `"${value}" is not a checkpoint number or id: use a number from "vigil checkpoints list" (1 = newest), d1, d2, … from "vigil checkpoints list --dropped", or at least 4 hex characters of an id.`,
    {
      field: 'checkpoint',
    },
  );
}

/** The index (0 = newest) a reference picks in a timeline of ids (newest first); errors say what exists. */
export function pickCheckpoint(ref: CheckpointRef, ids: readonly string[], dir: string): number {
  if (ids.length === 0) throw new AppError('not_found', `${dir} has no checkpoints yet.`, { dir });
  if (ref.kind === 'number') {
    // An id shown as 8 digits (about 2% of ids are) is its id, not a number past the end of the list.
    if (ref.prefix !== undefined && (ref.number < 1 || ref.number > ids.length))
      return pickCheckpoint({ kind: 'id', prefix: ref.prefix }, ids, dir);
    if (ref.number < 1 || ref.number > ids.length) {
      throw new AppError(
        'invalid_request',
        `There is no checkpoint ${ref.number} for ${dir}: use 1–${ids.length} (1 = newest).`,
        { field: 'checkpoint', count: ids.length },
      );
    }
    return ref.number - 1;
  }
  const matches = ids.flatMap((id, index) => (id.startsWith(ref.prefix) ? [index] : []));
  if (matches.length === 0)
    throw new AppError(
      'not_found',
      `No checkpoint of ${dir} has an id starting with ${ref.prefix}; see "vigil checkpoints list".`,
      { dir },
    );
  if (matches.length > 1)
    throw new AppError(
      'ambiguous_match',
      `${matches.length} checkpoints of ${dir} have ids starting with ${ref.prefix}; give more characters.`,
      { dir },
    );
  return matches[0] ?? 0;
}
