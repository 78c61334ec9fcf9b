/** The hooks' public face: other folders import only this file (lint: vigil/public-face), or lazy.ts. */

/** The `hooks` section of $VIGIL_HOME/config.json: how `vigil hook` answers the agents. */
export { hooksConfigSchema } from './hook-config';
/** The service that answers the hook events of Claude Code and Gemini CLI (built through lazy.ts). */
export type { HookService } from './hook-service';
