/** The sandbox's lazy face: what a CLI command loads only when it runs (lint: vigil/public-face). */

/** The OS sandbox as the core uses it, for `vigil serve`'s report of the sandbox's status. */
export const loadSandboxApi = () => import('./sandbox-api');
