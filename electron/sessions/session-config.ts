import { z } from 'zod';
import { lazySchema } from '../../shared/lazy-schema';
import { readConfigSection } from '../config';

/** The `sessions` section of $VIGIL_HOME/config.json: how long sessions live and their logs are kept. */
export const sessionConfigSchema = lazySchema(() =>
  z
    .object({
      /**
       * An MCP session over HTTP with no request and no open stream for this many minutes ends as
       * "disconnected" (a later request revives it). Fractions are allowed (0.5 = 30 s).
       */
      idleMinutes: z
        .number()
        .min(0.01)
        .max(7 * 24 * 60)
        .default(10),
      /** Logs of sessions that are not connected and had no activity for this many days are deleted. */
      maxDays: z.number().min(0.001).max(36_500).default(30),
      /**
       * A change to a file another live session changed in its current turn, or within
       * `collisionMinutes`: "ask" holds it for a person, "warn" lets it run and says so, "off" lets it run.
       */
      collisions: z.enum(['ask', 'warn', 'off']).default('ask'),
      /** How recent another session's change must be to count as a collision (outside its current turn). */
      collisionMinutes: z
        .number()
        .min(0)
        .max(24 * 60)
        .default(10),
    })
    .strict(),
);

/** The sessions section, defaults applied. */
export type SessionConfig = z.output<typeof sessionConfigSchema>;

/** What the rest of the core uses of the section, in milliseconds. */
export interface SessionSettings {
  readonly idleMs: number;
  readonly maxAgeMs: number;
  /** What to do about a change to a file another live session changed recently. */
  readonly collisions: 'ask' | 'warn' | 'off';
  /** How recent another session's change must be to collide (outside its current turn). */
  readonly collisionMs: number;
}

/** The settings of a `sessions` section, in milliseconds. */
export function toSessionSettings(config: SessionConfig): SessionSettings {
  return {
    idleMs: Math.round(config.idleMinutes * 60_000),
    maxAgeMs: Math.round(config.maxDays * 86_400_000),
    collisions: config.collisions,
    collisionMs: Math.round(config.collisionMinutes * 60_000),
  };
}

/** Reads the `sessions` section: defaults when it is missing, an `invalid_request` naming the field when a value is wrong. */
export async function readSessionSettings(configPath: string): Promise<SessionSettings> {
  return toSessionSettings(await readConfigSection(configPath, 'sessions', sessionConfigSchema));
}
