/** The sandbox's lazy face: what a CLI command loads only when it runs (lint: vigil/public-face). */

/** The OS sandbox as the core uses it, for `vigil serve`'s report of the sandbox's status. */
export const loadSandboxApi = () => import('./sandbox-api');

/** The sandbox engine started ahead of a one-shot core's services, for a command that runs an agent's terminal command. */
export const loadEngineHeadStart = () => import('./engine-head-start');

/** The sandbox engine's modules, loaded ahead (a one-shot terminal call loads them beside its core's). */
export const loadEngineImport = () => import('./engine-import');
