/** The sessions' public face: other folders import only this file (lint: vigil/public-face), or lazy.ts. */

/** The narrow port through which the executor and the hooks log tool calls. */
export type { CallLog } from './call-log';
/** What a session keeps of a call: secrets named, long values condensed. */
export { callSecretReason } from './logged-record';
export { condenseResult, condenseValue } from './logged-value';
/** The `sessions` section of $VIGIL_HOME/config.json: how long sessions live and their logs are kept. */
export { readSessionSettings, sessionConfigSchema } from './session-config';
export type { SessionSettings } from './session-config';
/** Warms up each folder a session opens, once. */
export { warmUpSessionFolders } from './session-folder-warm-up';
/** The handlers of the `sessions:` calls. */
export { createSessionHandlers } from './session-handlers';
/** The lines of a session log. */
export type { SessionRecord } from './session-records';
/** The sessions of this core, each with an append-only log under $VIGIL_HOME/sessions/. */
export { SessionRegistry } from './session-registry';
/** Takes a session's turns back. */
export { createSessionRewinder } from './session-rewinder';
export type { RestorePort } from './session-rewinder';
/** A session as it is loaded, and one line about each of its calls. */
export { describeCall } from './session-state';
export type { SessionState } from './session-state';
/** The session service's API, as the gateway, the executor, the CLI and the UI call it. */
export type { BeginTurnRequest, OpenSessionRequest, SessionService } from './session-types';
