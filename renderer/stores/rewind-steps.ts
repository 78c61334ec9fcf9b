import type { RewindMode, RewindOutcome, SessionSummary } from '../../shared/contract/sessions-contract';
import type { SliceContext } from './slice-context';

function describeOutcome(outcome: RewindOutcome): string {
  const files = outcome.restored.reduce((sum, directory) => sum + directory.filesChanged, 0);
  const parts: string[] = [];
  if (outcome.rewoundTurns.length > 0)
    parts.push(`${outcome.rewoundTurns.length} turn${outcome.rewoundTurns.length === 1 ? '' : 's'} marked rewound`);
  if (outcome.restored.length > 0)
    parts.push(
      `${files} file${files === 1 ? '' : 's'} restored in ${outcome.restored.length} folder${outcome.restored.length === 1 ? '' : 's'}`,
    );
  return parts.length === 0 ? 'Nothing needed to change.' : `${parts.join(', ')}.`;
}

/** The mode a rewind starts in: code and conversation, or code only for an ended session (no agent is left to tell). */
function startingMode(sessions: readonly SessionSummary[], sessionId: string): RewindMode {
  return sessions.find((session) => session.id === sessionId)?.status === 'ended' ? 'code' : 'both';
}

/** Plans rewinding a session to the start of a turn (`mode` absent: the session's starting mode); the plan waits for the person to confirm it. */
export async function planRewind(
  { client, set, get }: SliceContext,
  sessionId: string,
  toTurn: number,
  chosenMode?: RewindMode,
): Promise<void> {
  const mode = chosenMode ?? startingMode(get().sessions, sessionId);
  set({ rewind: { sessionId, toTurn, mode, phase: 'planning', plan: undefined, error: undefined } });
  const result = await client.call('sessions:plan-rewind', { sessionId, toTurn, mode });
  const flow = get().rewind;
  if (flow?.sessionId !== sessionId || flow.toTurn !== toTurn || flow.mode !== mode) return;
  set({
    rewind: result.ok
      ? { ...flow, phase: 'confirming', plan: result.value }
      : { ...flow, phase: 'confirming', error: result.error },
  });
}

/** Applies the confirmed rewind plan; says so in a toast that leads to the restore point. Returns the rewound session, if any. */
export async function applyRewind({ client, set, get }: SliceContext): Promise<string | undefined> {
  const flow = get().rewind;
  if (flow?.phase !== 'confirming' || flow.plan === undefined) return undefined;
  set({ rewind: { ...flow, phase: 'applying', error: undefined } });
  const result = await client.call('sessions:rewind', {
    sessionId: flow.sessionId,
    toTurn: flow.toTurn,
    mode: flow.mode,
    planId: flow.plan.planId,
    overwrite: [...(flow.overwrite ?? [])].map((key) => {
      const [directory = '', path = ''] = key.split('\0');
      return { directory, path };
    }),
  });
  if (!result.ok) {
    set({ rewind: { ...flow, phase: 'confirming', error: result.error } });
    if (result.error.code !== 'conflict') return undefined;
    // A conflict (a stale plan, a session running calls) re-makes the plan so the user confirms what
    // will really happen; the failure's reason stays shown beside it unless the new plan failed too.
    await get().planRewind(flow.sessionId, flow.toTurn, flow.mode);
    const replanned = get().rewind;
    if (replanned?.sessionId === flow.sessionId && replanned.error === undefined)
      set({ rewind: { ...replanned, error: result.error } });
    return undefined;
  }
  set({ rewind: undefined });
  const undoable = result.value.restored.filter((directory) => directory.preRollbackCheckpointId !== undefined);
  get().notify({
    tone: 'success',
    title: `Rewound to the start of turn ${flow.toTurn}`,
    detail: describeOutcome(result.value),
    ...(undoable.length === 0
      ? {}
      : {
          action: {
            label: 'Show restore point',
            testId: 'toast-show-restore-point',
            run: () => {
              const first = undoable[0];
              if (first?.preRollbackCheckpointId !== undefined) {
                get().navigate({
                  screen: 'timeline',
                  dir: first.directory,
                  checkpointId: first.preRollbackCheckpointId,
                });
              }
            },
          },
        }),
  });
  return flow.sessionId;
}
