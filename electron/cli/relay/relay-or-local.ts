import type { CallName, CallRequest, CallResponse } from '../../../shared/contract';
import type { Result } from '../../../shared/result';
import { relayCall, type RelayCallOptions } from './relay-client';
import { readServeCredential, type CredentialLookup, type ServeCredential } from './serve-credential';

/** Where a line about the choice goes (stderr, with the command's own prefix). */
export type SayLine = (line: string) => void;

/**
 * The resident core a command relays to: the one serve.json names, or none (work in-process). A
 * serve.json that cannot be used costs one line saying why. One rule for the CLI, `vigil hook`
 * and every command that relays.
 */
export async function relayTarget(
  serveInfo: string,
  say: SayLine,
  known?: CredentialLookup,
): Promise<ServeCredential | undefined> {
  const lookup = known ?? (await readServeCredential(serveInfo));
  if (lookup.kind === 'unusable') say(`not relaying to a Vigil core: ${lookup.reason}; working in-process.`);
  return lookup.kind === 'found' ? lookup.credential : undefined;
}

/**
 * One contract call relayed to the resident core, typed by its channel: the core's answer, or
 * undefined when the core cannot be reached (said in one line; the call never ran, so the caller
 * works in-process). A core that dies during the call rejects (`disconnected`): it may have run.
 */
export async function relayOrLocal<C extends CallName>(
  target: ServeCredential,
  channel: C,
  payload: CallRequest<C>,
  say: SayLine,
  options: RelayCallOptions = {},
): Promise<Result<CallResponse<C>> | undefined> {
  const outcome = await relayCall(target, channel, payload, options);
  // The core's router answered this channel: its result has the channel's response type.
  if (outcome.kind === 'answered') return outcome.result as Result<CallResponse<C>>;
  say(`could not reach the Vigil core (pid ${target.pid}): ${outcome.reason}; working in-process.`);
  return undefined;
}
