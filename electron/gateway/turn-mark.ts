import { z } from 'zod';
import { lazySchema } from '../../shared/lazy-schema';
import { AppError } from '../../shared/errors';
import { validationError } from '../../shared/validation';

/**
 * The `_meta` key with which an MCP client marks turns on `tools/call`:
 * `"_meta": { "vigil/turn": "turn-42" }` or `{ "vigil/turn": { "id": "turn-42", "userMessage": "fix the tests" } }`.
 * Calls with the same id belong to one turn; a new id ends the open turn and starts the next.
 */
export const turnMetaKey = 'vigil/turn';

const turnMarkSchema = lazySchema(() =>
  z.union([
    z.string().min(1).max(200),
    z.object({ id: z.string().min(1).max(200), userMessage: z.string().optional() }).strict(),
  ]),
);

/** A client's turn mark: its own id for the turn, and the user message that started it. */
export interface TurnMark {
  readonly id: string;
  readonly userMessage?: string;
}

/** Reads the turn mark of a request's `_meta`; undefined when there is none, an error naming the field when malformed. */
export function readTurnMark(meta: Readonly<Record<string, unknown>> | undefined): TurnMark | undefined {
  if (meta === undefined || !Object.hasOwn(meta, turnMetaKey)) return undefined;
  const parsed = turnMarkSchema.safeParse(meta[turnMetaKey]);
  if (!parsed.success) {
    const error = validationError(`_meta["${turnMetaKey}"] must be a turn id or { id, userMessage? }`, parsed.error);
    throw new AppError('invalid_request', error.message, { ...error.details, field: `_meta.${turnMetaKey}` });
  }
  const mark = parsed.data;
  if (typeof mark === 'string') return { id: mark };
  return mark.userMessage === undefined ? { id: mark.id } : { id: mark.id, userMessage: mark.userMessage };
}
