import { z } from 'zod';
import { lazySchema } from '../../shared/lazy-schema';
import type { ConfigFile } from '../config';

/** The `hooks` section of $VIGIL_HOME/config.json: how `vigil hook` answers the agents. */
export const hooksConfigSchema = lazySchema(() =>
  z
    .object({
      /**
       * The older name of `checkpoints.onFailure`, kept as its alias (that key wins when both are
       * set): `allow` lets a change whose checkpoint failed go on, and one Vigil could not answer
       * in time; `ask` (the default) holds it for the person, saying why.
       */
      onFailure: z.enum(['ask', 'allow']).optional(),
      /**
       * Answer a call Vigil's policy allows with Claude Code's "allow", which also skips Claude
       * Code's own permission prompt. Off by default: Vigil then raises no objection and Claude
       * Code's own rules decide. (Gemini CLI's "allow" never skips its confirmation.)
       */
      approveAllowed: z.boolean().default(false),
    })
    .strict(),
);

/** The hooks section, defaults applied. */
export type HooksConfig = z.output<typeof hooksConfigSchema>;

/** Reads the hooks section; an invalid section fails safe (ask on failure, approve nothing) and says why. */
export async function readHooksConfig(
  config: ConfigFile,
): Promise<{ readonly config: HooksConfig; readonly problem?: string }> {
  try {
    return { config: await config.section('hooks', hooksConfigSchema) };
  } catch (error) {
    return { config: hooksConfigSchema.parse({}), problem: error instanceof Error ? error.message : String(error) };
  }
}
