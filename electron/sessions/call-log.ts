import type { SessionRegistry } from './session-registry';

/**
 * The narrow port through which the executor and the hooks log tool calls: they write records; the
 * registry updates the live state and announces each finished call (`sessions:tool-called`), as it
 * announces every other `sessions:*` event.
 */
export type CallLog = Pick<SessionRegistry, 'activeState' | 'startRunning' | 'ensureTurn' | 'nextSeq' | 'record'>;
