import { sessionIdentities } from '../../shared/sessions/session-identity';
import { laneColourCount, type SessionIdentities } from '../model/session-lanes';
import type { AppState } from './app-store';

let lastSessions: AppState['sessions'] | undefined;
let lastIdentities: SessionIdentities = new Map();

/** Every known session's number and colour, recomputed only when the session list changes (a stable selector). */
export function selectSessionIdentities(state: AppState): SessionIdentities {
  if (state.sessions !== lastSessions) {
    lastSessions = state.sessions;
    lastIdentities = sessionIdentities(state.sessions, laneColourCount);
  }
  return lastIdentities;
}
