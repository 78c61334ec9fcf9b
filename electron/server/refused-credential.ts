import type { EventHub } from '../lib';
import type { Credential } from './route-access';

/**
 * Shows a refused credential in the UI: an agent credential on `/ws` means an agent tried to reach
 * the human's channels (approvals, restore, config), which the user should know about.
 */
export function reportRefusedCredential(
  events: Pick<EventHub, 'emit'>,
  refusal: { readonly path: string; readonly credential: Credential },
): void {
  if (refusal.credential.kind !== 'agent') return;
  events.emit('app:problem-reported', {
    source: 'gateway',
    message:
      `The agent credential "${refusal.credential.name}" was used on ${refusal.path} and refused: agents may not reach approvals, restore, rewind or config. ` +
      `If you did not expect this, revoke it with "vigil connect --revoke ${refusal.credential.name}".`,
    at: new Date().toISOString(),
  });
}
