import { z } from 'zod';
import { lazySchema } from '../../shared/lazy-schema';

/** The `core` section of $VIGIL_HOME/config.json: the background core that commands start for themselves. */
export const coreConfigSchema = lazySchema(() =>
  z
    .object({
      /**
       * When no core runs, the first command or hook call that reads or changes the store starts one
       * in the background (`vigil core run`) and relays to it. `false` keeps every command in-process
       * (as `--local` and `VIGIL_NO_CORE=1` do).
       */
      autoStart: z.boolean().default(true),
      /** How long the background core waits without a client before it exits (fractions allowed). */
      idleMinutes: z.number().positive().max(10_080).default(30),
      /**
       * How long a command waits for the background core it started to be ready before it works
       * in-process instead (a hook waits at most half its deadline).
       */
      startTimeoutSeconds: z.number().positive().max(300).default(10),
    })
    .strict(),
);

/** The core section, defaults applied. */
export type CoreConfig = z.output<typeof coreConfigSchema>;
