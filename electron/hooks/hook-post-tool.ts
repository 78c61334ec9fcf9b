import type { HookAgent, HookAnswer, HookEvent, HookTool } from '../../shared/hooks/hook-event';
import { fail, ok } from '../../shared/result';
import { canonicalPath } from '../files';
import { changedFilesOf, recordObservedCall, recordObservedWrites } from '../executor';
import { callSecretReason, condenseValue } from '../sessions';
import { hookCallIdOf, hookClientNames, type HookDeps } from './hook-context';
import type { HookSessionState, PendingCall } from './hook-state-store';

/** At most this many changed files are listed in a call's result (all of them go to the ledger). */
const listedFiles = 100;

/** A call whose "before" event Vigil never saw (its hooks were added mid-call, or did not run): recorded as it is, saying so. */
async function unseenCall(deps: HookDeps, sessionId: string, event: HookEvent, tool: HookTool): Promise<PendingCall> {
  const turn = await deps.sessions.ensureTurn(sessionId);
  const named = tool.kind === 'file' ? [tool.path] : tool.kind === 'patch' ? tool.paths : [];
  const targets = await Promise.all(named.map((file) => canonicalPath(file, event.cwd)));
  const isSecret =
    callSecretReason({ arguments: tool.input, resolved: targets.map((absolute) => ({ absolute })) }) !== undefined;
  return {
    callId: hookCallIdOf(tool),
    tool: tool.name,
    kind: tool.kind === 'shell' ? 'shell' : 'file',
    turn,
    at: new Date().toISOString(),
    decision: 'allow',
    arguments: condenseValue(tool.input, { isSecret }),
    isSecret,
    checkpoints: [],
    touched: [],
    problems: [
      `Vigil did not see this call before it ran (no PreToolUse/BeforeTool event reached it), so no checkpoint was taken before it.`,
    ],
    targets,
  };
}

/**
 * After a tool call: the call, its outcome and the files it changed go to the session log (and the
 * UI), and those files to the write ledger with the session and turn as the actor. A failed file
 * tool changed nothing Vigil records; a failed command may have changed its targets, so they are recorded.
 */
export async function answerPostTool(
  deps: HookDeps,
  sessionId: string,
  event: HookEvent,
  state: HookSessionState,
): Promise<HookAnswer> {
  const tool = event.tool;
  if (tool === undefined) return { notices: [] };
  const callId = hookCallIdOf(tool);
  const index = state.pending.findIndex((candidate) => candidate.callId === callId);
  const call =
    index >= 0 ? (state.pending.splice(index, 1)[0] as PendingCall) : await unseenCall(deps, sessionId, event, tool);
  const outcome = event.outcome ?? { ok: true, response: null };
  const files = outcome.ok || call.kind === 'shell' ? await changedFilesOf(call, deps.engine) : [];
  await recordObservedWrites(
    deps.ledger,
    deps.engine,
    { sessionId, agent: event.agent, turn: call.turn, tool: call.tool, callId: call.callId },
    files,
  );
  const agent = hookClientNames[event.agent];
  const result = outcome.ok
    ? ok({ response: outcome.response, changedFiles: files.slice(0, listedFiles), changedFileCount: files.length })
    : fail({
        code: 'tool_failed',
        message: `${agent} reported that ${tool.name} failed: ${outcome.error}`,
        details: { changedFileCount: files.length },
      });
  await recordObservedCall(deps, sessionId, call, {
    decision: call.decision === 'ask' ? 'asked-allowed' : 'allowed',
    reason: call.reason,
    result,
    at: new Date().toISOString(),
  });
  return { notices: [] };
}

/**
 * Calls Vigil answered whose result never came, recorded when the turn ends (or the next begins, or
 * the session ends): refused in the agent's own permission prompt, or the agent stopped first. Their
 * checkpoints stay; nothing claims they ran or did not.
 */
export async function flushPendingCalls(
  deps: HookDeps,
  sessionId: string,
  agent: HookAgent,
  state: HookSessionState,
): Promise<void> {
  const name = hookClientNames[agent];
  const waiting = state.pending.splice(0);
  for (const call of waiting) {
    const at = new Date().toISOString();
    const unreported = `${name} never reported a result for this call: it was refused in its own permission prompt, or the agent stopped before running it (or ran it without reporting back).`;
    if (call.decision === 'ask') {
      const reason = `${call.reason ?? 'Vigil asked'}; the person was asked in ${name}'s own prompt and no result came`;
      await recordObservedCall(deps, sessionId, call, {
        decision: 'denied',
        reason,
        result: fail({ code: 'cancelled', message: unreported }),
        at,
      });
    } else {
      await recordObservedCall(deps, sessionId, call, {
        decision: 'allowed',
        reason: call.reason,
        result: fail({ code: 'cancelled', message: unreported }),
        at,
      });
    }
  }
}
