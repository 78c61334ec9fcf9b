import { AppError } from '../../shared/errors';
import type { Logger } from '../logging';
import type { CallContext, PartialCallHandlers } from '../transport';
import type { ApprovalChannel, ApprovalService } from './approval-service';

/**
 * Which UI a decision comes from; anything else is refused. Approvals come from a person looking
 * at the full command: the app's window (IPC) or the served page (a WebSocket with the page's
 * credential, which is only in the URL `vigil serve` printed, from a browser that sent this server's
 * own Origin). A program holding serve.json's credential (the user's CLI, a script, an agent run
 * outside the sandbox) is refused whatever Origin it claims, and so is anything the transports cannot place.
 */
function channelOf(context: CallContext): ApprovalChannel | undefined {
  if (context.transport === 'ipc' && context.peer === 'window') return 'window';
  if (context.transport === 'websocket' && context.peer === 'page') return 'page';
  return undefined;
}

/** The handlers of the `approvals:` calls (the UI's approval prompts). */
export function createApprovalHandlers(
  approvals: ApprovalService,
  logger: Logger,
): PartialCallHandlers<'approvals:list' | 'approvals:decide'> {
  return {
    'approvals:list': () => Promise.resolve({ approvals: [...approvals.list()] }),
    'approvals:decide': (request, context) => {
      const via = channelOf(context);
      if (via === undefined) {
        logger.warn('refused an approval that did not come from the UI', {
          approval: request.id,
          transport: context.transport,
          peer: context.peer,
        });
        return Promise.reject(
          new AppError(
            'denied',
            "Approvals come only from a person in Vigil's window or the page vigil serve serves (opened from the URL it printed), " +
              "where the full command is shown; this connection is neither (serve.json's credential is the CLI's, and cannot approve), " +
              'so nothing was decided. Open the UI to allow or deny.',
            { approval: request.id },
          ),
        );
      }
      const { approval, decision } = approvals.decide(request.id, request.decision, via);
      return Promise.resolve({ approval, decision });
    },
  };
}
