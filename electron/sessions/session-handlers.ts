import { actorOfCall } from '../transport';
import type { PartialCallHandlers } from '../transport';
import type { SessionService } from './session-types';

/** The handlers of the `sessions:` calls (the UI's live list, older sessions on request, history and turn undo). */
export function createSessionHandlers(
  sessions: SessionService,
): PartialCallHandlers<
  'sessions:list' | 'sessions:history' | 'sessions:turns' | 'sessions:plan-rewind' | 'sessions:rewind'
> {
  return {
    'sessions:list': async (request) => {
      if (request.includeOlder === true) await sessions.loadOlder();
      return { sessions: [...sessions.list()], olderCount: sessions.olderCount() };
    },
    'sessions:history': (request) => sessions.history(request.sessionId),
    'sessions:turns': async (request) => ({ turns: await sessions.turns(request.turns) }),
    'sessions:plan-rewind': (request) => sessions.planRewind(request.sessionId, request.toTurn, request.mode),
    'sessions:rewind': (request, context) =>
      sessions.rewind(request.sessionId, request.toTurn, request.mode, {
        actor: actorOfCall(context),
        planId: request.planId,
        ...(request.overwrite === undefined ? {} : { overwrite: request.overwrite }),
      }),
  };
}
