/**
 * lib's public face: other folders import only this file (lint: vigil/public-face), or lazy.ts.
 *
 * The bottom layer of the main process: small helpers with no Vigil policy in them. Light paths
 * (`vigil hook`, the relayed commands, the hashing worker) import it too: the build rewrites a named
 * import of a face to the module that defines the name (scripts/build/face-imports.ts).
 */

/** Cleanups run in reverse order, once, as a resource's owner closes. */
export { DisposableStack } from './disposable';
export type { Disposer } from './disposable';
/** The core's typed event bus, which the transports forward to the UI and clients. */
export { EventHub } from './event-hub';
/** A function that runs its body once and keeps the result. */
export { once } from './once';
/** Path comparisons as the file system makes them (case-insensitive on macOS and Windows). */
export { isCaseInsensitive, isPathBelow, isPathInside, pathKey, pathKeyOn, relativeInside } from './path-rules';
/** Whether a process lives, when it started, and stopping it. */
export { isProcessAlive } from './process/is-process-alive';
export { ownStartTime, processStart, processStateOfStat } from './process/process-start-time';
export type { ProcessStart } from './process/process-start-time';
export { isProcessGone, stopProcess } from './process/stop-process';
/** Vigil's version, from package.json. */
export { vigilVersion } from './version';
/** $VIGIL_HOME and the paths under it. */
export { ensureVigilHome, resolveVigilHome, vigilPaths } from './vigil-home';
export type { VigilPaths } from './vigil-home';
/** How to run this `vigil` again from another process (a hook, an agent's MCP config). */
export { vigilInvocation } from './vigil-invocation';
