import type { z } from 'zod';

/** One request/response call of the contract (`domain:verb`). */
export interface CallSpec<Request extends z.ZodType = z.ZodType, Response extends z.ZodType = z.ZodType> {
  /** One line for the docs and the CLI. */
  readonly summary: string;
  readonly request: Request;
  readonly response: Response;
}

/** One event of the contract (`domain:changed`-style, past tense). */
export interface EventSpec<Payload extends z.ZodType = z.ZodType> {
  readonly summary: string;
  readonly payload: Payload;
}

/** Declares a domain's calls; the identity function keeps the literal types. */
export function defineCalls<const T extends Record<`${string}:${string}`, CallSpec>>(calls: T): T {
  return calls;
}

/** Declares a domain's events; the identity function keeps the literal types. */
export function defineEvents<const T extends Record<`${string}:${string}`, EventSpec>>(events: T): T {
  return events;
}
