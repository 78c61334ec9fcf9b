/** The logging folder's public face: other folders import only this file (lint: vigil/public-face). */

/** Logs a process's uncaught errors and unhandled rejections before it exits. */
export { logProcessErrors } from './log-process-errors';
/** The core's logger: a file under $VIGIL_HOME/logs, a silent one for tests, and one-line echoes. */
export { createFileLogger, echoLine, silentLogger } from './logger';
export type { Logger } from './logger';
