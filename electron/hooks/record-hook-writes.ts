import type { CheckpointApi, WriteLedger } from '../checkpoints';

/** Who made writes an agent reported through its hooks: its session and turn, the call. */
export interface HookWriteActor {
  readonly sessionId: string;
  /** The agent's name, as its session has it. */
  readonly agent: string;
  readonly turn: number;
  /** The agent's own tool name. */
  readonly tool: string;
  readonly callId: string;
}

/**
 * The one place the hooks record files an agent's own tool call changed: in the write ledger (so
 * restore plans do not flag them as changed outside the agents) and in the engine's dirty set (so
 * the next checkpoint re-reads them), as the call's session and turn.
 */
export async function recordHookWrites(
  ledger: WriteLedger,
  engine: Pick<CheckpointApi, 'noteWritten'>,
  actor: HookWriteActor,
  paths: readonly string[],
): Promise<void> {
  if (paths.length === 0) return;
  engine.noteWritten(paths);
  await ledger.record(paths, {
    kind: 'session',
    sessionId: actor.sessionId,
    agent: actor.agent,
    turn: actor.turn,
    tool: actor.tool,
  });
}
