/** The hooks' lazy face: what the composition root loads only when it builds the hook service (lint: vigil/public-face). */

/** The service that answers the hook events of Claude Code and Gemini CLI. */
export const loadHookService = () => import('./hook-service');
