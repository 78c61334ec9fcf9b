import { hookAgentNames, type HookAnswer, type HookEvent, type HookTool } from '../../shared/hooks/hook-event';
import { fail } from '../../shared/result';
import { readCheckpointOnFailure } from '../checkpoints';
import type { CheckpointGate } from '../executor';
import { observeBefore, type ObservedBefore, recordObservedCall } from '../executor';
import { describeCall } from '../sessions';
import { readHooksConfig } from './hook-config';
import { hookCallIdOf, type HookDeps } from './hook-context';
import type { HookSessionState } from './hook-state-store';

/** A refused call, recorded at once as blocked, never checkpointed (seed 002); its own error if it has one (a collision). */
async function refuse(
  deps: HookDeps,
  sessionId: string,
  tool: HookTool,
  refused: Extract<ObservedBefore, { kind: 'refused' }>,
): Promise<HookAnswer> {
  const { reason, error } = refused;
  // A refused call is the agent's next call: the one before no longer waits at its prompt.
  deps.sessions.setPendingCall(sessionId, undefined);
  await recordObservedCall(deps, sessionId, refused.call, {
    decision: 'blocked',
    reason,
    result: fail(error ?? { code: 'denied', message: `${tool.name} was refused by Vigil: ${reason}` }),
    at: new Date().toISOString(),
  });
  return { decision: 'deny', reason, notices: [] };
}

/**
 * Before a tool call the agent runs itself: the executor's stages for it (validate and resolve once,
 * policy, collision guard, approval by the agent's own prompt, checkpoint; see `observeBefore`). A
 * refused call is recorded at once; one let through waits in the session's state for its result
 * (PostToolUse), and is shown at the agent's prompt or running until then.
 */
export async function answerPreTool(
  gate: CheckpointGate,
  deps: HookDeps,
  sessionId: string,
  event: HookEvent,
  state: HookSessionState,
): Promise<HookAnswer> {
  const tool = event.tool;
  if (tool === undefined) {
    deps.sessions.setPendingCall(sessionId, undefined);
    return { notices: [] };
  }
  const turn = await deps.sessions.ensureTurn(sessionId);
  const session = deps.sessions.summary(sessionId);
  let approveAllowed = false;
  const before = await observeBefore(
    { ...deps, gate },
    {
      sessionId,
      agent: event.agent,
      turn,
      tool,
      cwd: event.cwd,
      session: session.cwd === undefined ? { roots: session.roots } : { roots: session.roots, cwd: session.cwd },
      ...(event.unattended === undefined ? {} : { unattended: event.unattended }),
      limits: await deps.checkpointLimits(),
      onFailure: async () => {
        const [{ config }, onFailure] = await Promise.all([
          readHooksConfig(deps.config),
          readCheckpointOnFailure(deps.config),
        ]);
        approveAllowed = config.approveAllowed;
        return onFailure;
      },
      pending: state.pending,
    },
    hookCallIdOf(tool),
  );
  if (before.kind === 'refused') return refuse(deps, sessionId, tool, before);
  const { call } = before;
  state.pending.push(call);
  // Shown until its result comes (or the next call, the turn's end): at the agent's own prompt, or running.
  deps.sessions.setPendingCall(sessionId, {
    callId: call.callId,
    name: call.tool,
    turn,
    summary: describeCall(call.tool, call.arguments),
    at: call.at,
    isAsking: call.decision === 'ask',
    ...(call.reason === undefined ? {} : { reason: call.reason }),
    agentName: hookAgentNames[event.agent],
  });
  return { decision: call.decision, reason: call.reason, notices: [], isApproving: approveAllowed };
}
