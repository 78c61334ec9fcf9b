import { createHash } from 'node:crypto';
import type { ElidedText } from '../../shared/contract/sessions-contract';
import type { Result } from '../../shared/result';
import { maskedMark, maskSecretValues } from '../../shared/secrets/mask-secret-values';

/**
 * What a session keeps of a tool call's arguments and results, in memory and in its log: what
 * the UI shows, never whole contents (issue 18). Metadata (paths, commands, actions) stays whole;
 * a long text becomes an `elided-text` (size, SHA-256, a short masked preview); a text that went
 * to or came from a secret path keeps only its size. Every kept string has secret-looking values
 * masked. Condensing a condensed value changes nothing, so old logs can be condensed on load.
 */

/** How many characters of a long text are kept as its preview. */
export const previewChars = 200;
/** How long a metadata string (a path, a command) may be before it too is elided. */
export const metadataChars = 4096;
/** How long a transcript message or an error message may be; the rest is dropped, and said so. */
export const proseChars = 4000;
/** How many items of an array are kept (a listing, a batch of edits). */
export const maxKeptItems = 100;

const maxDepth = 8;

/** Keys whose strings are metadata, not contents: kept whole (masked) up to `metadataChars`. */
const metadataKeys = new Set([
  'path',
  'file',
  'file_path',
  'filePath',
  'paths',
  'cwd',
  'dir',
  'directory',
  'command',
  'action',
  'target',
  'name',
  'tool',
  'code',
  'field',
  'kind',
  'mode',
  'reason',
  'decision',
  'checkpointId',
  'id',
]);

/** How a value is condensed: `isSecret` when the call touched a secret path. */
export interface CondenseOptions {
  readonly isSecret?: boolean;
}

/** Whether a value is an `elided-text` already. */
export function isElidedText(value: unknown): value is ElidedText {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'elided-text';
}

/**
 * A copy of a short string that shares no memory with the strings it was made from. V8 makes a
 * slice of a long string a view that keeps the whole of it alive (and a concatenation keeps its
 * parts): a 200-character preview of a 200 KB write would hold all 200 KB for as long as the
 * session lives.
 */
function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/** The start of a text with secret-looking values masked; a secret cut by the preview's end is still masked. */
export function maskedPreview(text: string, length = previewChars): string {
  // Masked over a wider window than kept, so a key that straddles the cut is recognised whole.
  const window = maskSecretValues(text.slice(0, length + 512));
  if (window.length <= length) return detached(window);
  const markStart = window.lastIndexOf(maskedMark, length);
  const end = markStart !== -1 && markStart + maskedMark.length > length ? markStart + maskedMark.length : length;
  return detached(window.slice(0, end));
}

/** A long or secret text as an `elided-text`. */
export function elideText(text: string, reason: ElidedText['reason']): ElidedText {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (reason === 'secret') return { kind: 'elided-text', reason, chars: text.length, bytes };
  return {
    kind: 'elided-text',
    reason,
    chars: text.length,
    bytes,
    sha256: createHash('sha256').update(text).digest('hex'),
    preview: maskedPreview(text),
  };
}

/** Prose (a message, an error message) masked and cut to `max` characters, saying how much was dropped. */
export function condenseProse(text: string, max = proseChars): string {
  if (text.length <= max) return detached(maskSecretValues(text));
  return `${maskedPreview(text, max)}\n[… ${text.length - max} more characters not kept in the session log]`;
}

function condenseString(text: string, key: string | undefined, options: CondenseOptions): unknown {
  if (key !== undefined && metadataKeys.has(key))
    return text.length <= metadataChars ? detached(maskSecretValues(text)) : elideText(text, 'long');
  if (options.isSecret === true) return elideText(text, 'secret');
  return text.length <= previewChars ? detached(maskSecretValues(text)) : elideText(text, 'long');
}

function condenseAt(value: unknown, key: string | undefined, options: CondenseOptions, depth: number): unknown {
  if (typeof value === 'string') return condenseString(value, key, options);
  if (typeof value !== 'object' || value === null) return value;
  if (isElidedText(value)) return value;
  if (depth >= maxDepth) return '[… nested too deep to keep in the session log]';
  if (Array.isArray(value)) {
    const kept = value.slice(0, maxKeptItems).map((item) => condenseAt(item, key, options, depth + 1));
    return value.length <= maxKeptItems
      ? kept
      : [...kept, `[… ${value.length - maxKeptItems} more items not kept in the session log]`];
  }
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [name, condenseAt(item, name, options, depth + 1)]),
  );
}

/** A tool call's arguments (or a result's value) as a session keeps them. */
export function condenseValue(value: unknown, options: CondenseOptions = {}): unknown {
  return condenseAt(value, undefined, options, 0);
}

/** A tool call's result as a session keeps it: the error's message stays a string (masked, capped). */
export function condenseResult(result: Result<unknown>, options: CondenseOptions = {}): Result<unknown> {
  if (result.ok) return { ok: true, value: condenseValue(result.value, options) };
  const { code, message, details } = result.error;
  return {
    ok: false,
    error: {
      code,
      message: condenseProse(message),
      ...(details === undefined
        ? {}
        : { details: condenseValue(details, options) as Readonly<Record<string, unknown>> }),
    },
  };
}
