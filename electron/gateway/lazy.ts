/** The agent gateway's lazy face: what `vigil mcp` loads only when it runs (lint: vigil/public-face). */

/** `vigil mcp`'s stdio side (transport, size limit, session loop), loaded when the command runs. */
export const loadStdio = () => import('./stdio');

/** The stdio-to-HTTP bridge `vigil mcp` runs when a core is live. */
export const loadMcpStdioBridge = () => import('./mcp-stdio-bridge');
