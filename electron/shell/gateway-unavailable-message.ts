import type { AppError } from '../../shared/errors';
import { withoutCredential } from '../../shared/ui-credential';
import type { ServeInfo } from '../server';

/** The dialog text shown when the desktop app cannot serve agents. */
export interface GatewayUnavailableMessage {
  readonly message: string;
  readonly detail: string;
}

/**
 * Explains why agents cannot reach this window's Vigil, and what to do. The usual case: another
 * Vigil (a `vigil serve`, or the app started with the same VIGIL_HOME elsewhere) owns serve.json.
 */
export function gatewayUnavailableMessage(
  error: AppError,
  owner: ServeInfo | undefined,
  home: string,
): GatewayUnavailableMessage {
  if (owner !== undefined) {
    const address = owner.url === null ? '' : ` at ${withoutCredential(owner.url)}`;
    return {
      message: 'Agents connect to another Vigil.',
      detail:
        `Another Vigil (pid ${owner.pid}, started ${owner.startedAt}) is already serving agents for the data folder ${home}${address}. ` +
        'Agents that use "vigil mcp" reach that one, so their sessions do not appear in this window. ' +
        'This window works normally. To supervise agents here, quit the other Vigil and restart this one, ' +
        'or give each its own data folder (VIGIL_HOME).',
    };
  }
  return {
    message: 'Agents cannot connect to this Vigil.',
    detail: `${error.message} This window works normally; the logs folder has the details. Restart Vigil to try again.`,
  };
}
