import type { z } from 'zod';
import { appCalls, appEvents } from './app-contract';
import { approvalsCalls, approvalsEvents } from './approvals-contract';
import {
  checkpointsCalls,
  checkpointsEvents,
  checkpointsRestoreCalls,
  checkpointsRestoreEvents,
} from './checkpoints-contract';
import { checkpointsHistoryCalls } from './checkpoints-history-contract';
import { checkpointsLiveCalls, checkpointsLiveEvents } from './checkpoints-live-contract';
import { configCalls, configEvents } from './config-contract';
import { hooksCalls } from './hooks-contract';
import { memoryCalls, memoryEvents } from './memory-contract';
import { sessionsCalls, sessionsEvents } from './sessions-contract';
import { toolsCalls } from './tools-contract';

/** Every request/response call of the contract, by channel name. */
export const callSpecs = {
  ...appCalls,
  ...memoryCalls,
  ...sessionsCalls,
  ...approvalsCalls,
  ...checkpointsCalls,
  ...checkpointsRestoreCalls,
  ...checkpointsLiveCalls,
  ...checkpointsHistoryCalls,
  ...configCalls,
  ...toolsCalls,
  ...hooksCalls,
};

/** Every event of the contract, by name. */
export const eventSpecs = {
  ...appEvents,
  ...memoryEvents,
  ...sessionsEvents,
  ...approvalsEvents,
  ...checkpointsEvents,
  ...checkpointsRestoreEvents,
  ...checkpointsLiveEvents,
  ...configEvents,
};

/** The name of a contract call. */
export type CallName = keyof typeof callSpecs;
/** What a caller sends for a call (before defaults are applied). */
export type CallRequest<C extends CallName> = z.input<(typeof callSpecs)[C]['request']>;
/** What a handler receives for a call (after parsing). */
export type ParsedCallRequest<C extends CallName> = z.output<(typeof callSpecs)[C]['request']>;
/** What a call answers with. */
export type CallResponse<C extends CallName> = z.output<(typeof callSpecs)[C]['response']>;

/** The name of a contract event. */
export type EventName = keyof typeof eventSpecs;
/** The payload of a contract event. */
export type EventPayload<E extends EventName> = z.output<(typeof eventSpecs)[E]['payload']>;

/** Whether a string names a contract call. */
export function isCallName(name: string): name is CallName {
  return Object.hasOwn(callSpecs, name);
}

/** Whether a string names a contract event. */
export function isEventName(name: string): name is EventName {
  return Object.hasOwn(eventSpecs, name);
}

/** The names of every contract call, for transports that expose an allowlist. */
export const callNames = Object.keys(callSpecs) as readonly CallName[];
/** The names of every contract event. */
export const eventNames = Object.keys(eventSpecs) as readonly EventName[];
