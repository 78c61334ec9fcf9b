import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import type { Actor, PlainActor } from './actor-model';

/** The schema of who made a change (the `Actor` of actor-model.ts). */
export const actorSchema = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('session'),
      sessionId: z.string(),
      agent: z.string().optional(),
      turn: z.number().int().nonnegative().optional(),
      tool: z.string().optional(),
    }),
    z.object({ kind: z.literal('app') }),
    z.object({ kind: z.literal('cli') }),
    z.object({ kind: z.literal('vigil') }),
    z.object({ kind: z.literal('outside') }),
  ]),
);

/** The actors that are not a session, as the `Vigil-Actor` trailer names them. */
export const plainActorSchema = lazySchema(() => z.enum(['app', 'cli', 'vigil', 'outside']));

/** The schemas stay exactly the model's types (actor-model.ts), checked here at compile time. */
type IsSame<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const isActorSchemaInStep: IsSame<z.infer<typeof actorSchema>, Actor> = true;
/** The same for the plain actors. */
export const isPlainActorSchemaInStep: IsSame<z.infer<typeof plainActorSchema>, PlainActor> = true;
