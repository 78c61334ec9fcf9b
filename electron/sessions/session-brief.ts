import type { SessionStatus, SessionSummary } from '../../shared/contract/sessions-contract';
import { latestOverwrites } from './session-overwrites';
import { describeCall, type SessionState } from './session-state';
import { latestFiles, promptOf, recentCalls, type TurnSource } from './session-summary-parts';

/** What one turn of a loaded session was about (undefined: no such turn). */
export function turnSourceOf(state: SessionState, turn: number): TurnSource | undefined {
  const found = state.turns.get(turn);
  if (found === undefined) return undefined;
  const message = found.entries.find((entry) => entry.kind === 'message' && entry.role === 'user');
  const calls = found.entries.flatMap((entry) => {
    const call = entry.kind === 'call' ? state.calls.get(entry.seq) : undefined;
    if (call === undefined) return [];
    const { record } = call;
    return [
      {
        name: record.name,
        summary: describeCall(record.name, record.arguments),
        decision: record.decision,
        directories: record.touched.map((touched) => touched.directory),
      },
    ];
  });
  const changes = found.entries.flatMap((entry) => {
    const result = entry.kind === 'call' ? state.calls.get(entry.seq)?.result : undefined;
    return result === undefined ? [] : [{ effects: result.effects, effectsOmitted: result.effectsOmitted }];
  });
  return { userMessage: message?.kind === 'message' ? message.text : undefined, calls, changes };
}

/** The current turn's first user message, as a summary carries it. */
function currentPrompt(state: SessionState): { prompt?: string } {
  const message = state.turns
    .get(state.currentTurn)
    ?.entries.find((entry) => entry.kind === 'message' && entry.role === 'user');
  return message?.kind === 'message' ? { prompt: promptOf(message.text) } : {};
}

/** A session's summary without its status, which only the live registry knows (connections, running calls, approvals). */
export type SessionBrief = Omit<SessionSummary, 'status'>;

/** The session's summary fields, kept while its full state is unloaded. */
export function toBrief(state: SessionState): SessionBrief {
  return {
    id: state.id,
    agent: state.agent,
    client: state.client,
    transcriptPath: state.transcriptPath,
    roots: [...state.roots],
    cwd: state.cwd,
    currentTurn: state.currentTurn,
    isTurnOpen: state.isTurnOpen,
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
    lastActiveAt: state.lastActiveAt,
    toolCallCount: state.calls.size,
    lastToolCall: state.lastToolCall,
    recentCalls: recentCalls(state.briefs, state.lastSeq),
    ...currentPrompt(state),
    files: latestFiles(state.files),
    fileCount: state.files.size,
    ...(state.overwrites.length === 0 ? {} : { overwrites: latestOverwrites(state.overwrites) }),
    warnings: [...state.warnings],
  };
}

/** The session as the live list shows it. */
export function toSummary(state: SessionState, status: SessionStatus): SessionSummary {
  return { ...toBrief(state), status };
}
