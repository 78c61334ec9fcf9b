/** The sessions' lazy face: what the composition root loads only when it builds a service (lint: vigil/public-face). */

/** Each turn's message, looked up for the history of a file. */
export const loadTurnMessages = () => import('./turn-messages');

/** The `sessions` section of config.json and the settings read from it. */
export const loadSessionConfig = () => import('./session-config');

/** The watch a resident core keeps on the folders of open sessions. */
export const loadSessionFolderWatch = () => import('./session-folder-watch');
