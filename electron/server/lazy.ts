/** The HTTP server's lazy face: what a CLI command loads only when it runs (lint: vigil/public-face). */

/** `vigil serve`'s server, with the core it serves: loaded only when that command runs. */
export const loadStartServe = () => import('./start-serve');

/** The background core's entry (`vigil core run`): loaded only when that command runs. */
export const loadBackgroundCore = () => import('./background-core');

/** serve.json's reader, for commands that report on the live core. */
export const loadServeInfo = () => import('./serve-info');

/** The agents' credential store, for `vigil mcp`'s bridge. */
export const loadAgentCredentials = () => import('./agent-credentials');

/** The loopback check `vigil serve` makes of --host before it loads the server. */
export const loadServerAuth = () => import('./auth');
