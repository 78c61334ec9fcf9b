/** The lib folder's lazy face: what a CLI command loads only when it runs (lint: vigil/public-face). */

/** Stopping a process and waiting until it is gone, for `vigil core stop`. */
export const loadStopProcess = () => import('./process/stop-process');
