import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { errorCodes } from '../errors';

/** The largest WebSocket frame either side accepts, in bytes. */
export const maxFrameBytes = 8 * 1024 * 1024;

/** A call from the UI over the WebSocket transport. */
export const clientFrameSchema = lazySchema(() =>
  z.object({
    type: z.literal('call'),
    id: z.number().int().nonnegative(),
    channel: z.string().min(1).max(200),
    payload: z.unknown().optional(),
  }),
);

/** Error data as it travels. */
export const errorDataSchema = lazySchema(() =>
  z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
);

/** A result as it travels. */
export const resultSchema = lazySchema(() =>
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value: z.unknown() }),
    z.object({ ok: z.literal(false), error: errorDataSchema }),
  ]),
);

/** Everything the server sends over the WebSocket transport. */
export const serverFrameSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('hello'), version: z.string() }),
    z.object({ type: z.literal('result'), id: z.number().int().nonnegative().nullable(), result: resultSchema }),
    z.object({ type: z.literal('event'), name: z.string(), payload: z.unknown() }),
  ]),
);

/** A frame from the UI to the server. */
export type ClientFrame = z.infer<typeof clientFrameSchema>;
/** A frame from the server to the UI. */
export type ServerFrame = z.infer<typeof serverFrameSchema>;
