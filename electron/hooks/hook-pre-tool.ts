import type { CallCheckpoint } from '../../shared/contract/sessions-contract';
import { hookAgentNames, type HookAnswer, type HookEvent, type HookTool } from '../../shared/hooks/hook-event';
import type { AppErrorData } from '../../shared/errors';
import { fail } from '../../shared/result';
import { checkpointReasons } from '../../shared/checkpoint-reasons';
import type { CheckpointGate } from '../executor/checkpoint-gate';
import { collisionLine, collisionRefusal, collisionWarning } from '../executor/collision-rule';
import { commandSubject } from '../tools';
import { callSecretReason } from '../sessions/logged-record';
import { condenseValue } from '../sessions/logged-value';
import { describeCall } from '../sessions/session-state';
import { isPathInside } from '../lib/path-rules';
import { planFileCall, planShellCall, type CallPlan, type PlanContext } from './hook-call-plan';
import { planPatchCall } from './hook-patch-plan';
import { recordHookCall } from './hook-call-record';
import { pathsIn, turnCheckpointOf } from './hook-checkpoint';
import { readHooksConfig } from './hook-config';
import { hookCallIdOf, type HookDeps } from './hook-context';
import type { HookSessionState, PendingCall } from './hook-state-store';

/** The subject of the checkpoint before a call: `before Write`, `before terminal: rm -rf legacy`. */
function reasonOf(tool: HookTool): string {
  return tool.kind === 'shell'
    ? checkpointReasons.beforeTerminal(commandSubject(tool.command))
    : checkpointReasons.beforeTool(tool.name);
}

/**
 * The checkpoints a plan asks for, through the executor's checkpoint gate: file tools once per
 * directory per turn (a checkpoint the turn already holds — on record, or waiting for its result,
 * perhaps taken by another process — is found, not taken again), shell commands before every command.
 */
async function checkpointsFor(
  gate: CheckpointGate,
  deps: HookDeps,
  sessionId: string,
  event: HookEvent,
  tool: HookTool,
  plan: CallPlan,
  turn: number,
  state: HookSessionState,
) {
  const gated = await gate.before(
    {
      sessionId,
      agent: event.agent,
      turn,
      tool: tool.name,
      reason: reasonOf(tool),
      directories: plan.directories,
      paths: plan.targets,
      isWholeDirectory: plan.isWholeDirectory,
    },
    {
      isEveryCall: !plan.isOncePerTurn,
      heldElsewhere: (directory) => turnCheckpointOf(deps.sessions.stateOf(sessionId), state.pending, turn, directory),
    },
  );
  // A checkpoint never claims to cover what it leaves out: the call's checkpoints say what that is.
  const checkpoints: CallCheckpoint[] =
    plan.notCovered.length === 0
      ? [...gated.checkpoints]
      : gated.checkpoints.map((taken) => ({ ...taken, notCovered: [...plan.notCovered] }));
  return { checkpoints, touched: gated.touched, failures: gated.problems };
}

/** The call as it waits for its result: what the session will record. */
function pendingOf(
  tool: HookTool,
  plan: CallPlan,
  turn: number,
): Omit<PendingCall, 'decision' | 'checkpoints' | 'touched' | 'problems'> {
  const resolved = plan.targets.map((absolute) => {
    const root = plan.directories.find((directory) => isPathInside(absolute, directory));
    return root === undefined ? { absolute } : { absolute, root };
  });
  const isSecret =
    callSecretReason({
      arguments: tool.input,
      resolved,
      relative: plan.directories.flatMap((directory) => pathsIn(directory, plan.targets).paths ?? []),
    }) !== undefined;
  return {
    callId: hookCallIdOf(tool),
    tool: tool.name,
    // A patch's targets are exactly the files it changes, as a file tool's are.
    kind: tool.kind === 'shell' ? 'shell' : 'file',
    turn,
    at: new Date().toISOString(),
    arguments: condenseValue(tool.input, { isSecret }),
    isSecret,
    targets: plan.targets,
  };
}

/** Why a call Vigil would ask about is refused where the agent asks nobody, and how to run it by hand. */
function unattendedRefusal(tool: HookTool, reason: string | undefined, unattended: string, cwd: string): string {
  const byHand =
    tool.kind === 'shell'
      ? `To run it anyway, run it yourself in a terminal in ${cwd}: ${commandSubject(tool.command)}`
      : `To make this change anyway, make it yourself, or run the agent in a mode where it asks you.`;
  return `Vigil would ask a person about this ${tool.name} (${reason ?? 'it needs a decision'}), but ${unattended}, so Vigil refuses it. ${byHand}`;
}

/** A refused call, recorded at once as blocked, never checkpointed (seed 002); `error`: its own refusal (a collision). */
async function refuse(
  deps: HookDeps,
  sessionId: string,
  base: ReturnType<typeof pendingOf>,
  tool: HookTool,
  reason: string,
  error?: AppErrorData,
): Promise<HookAnswer> {
  const call: PendingCall = { ...base, decision: 'allow', checkpoints: [], touched: [], problems: [] };
  // A refused call is the agent's next call: the one before no longer waits at its prompt.
  deps.sessions.setPendingCall(sessionId, undefined);
  await recordHookCall(deps, sessionId, call, {
    decision: 'blocked',
    reason,
    result: fail(error ?? { code: 'denied', message: `${tool.name} was refused by Vigil: ${reason}` }),
    at: new Date().toISOString(),
  });
  return { decision: 'deny', reason, notices: [] };
}

/**
 * The executor's collision guard on a file tool. "ask": the agent's own prompt asks the person,
 * with the line and what to do; where the agent asks nobody, the call is refused with the message
 * MCP gives (`collision`). "warn": it runs, its reason saying what it overwrites.
 */
async function guardCollision(
  deps: HookDeps,
  sessionId: string,
  event: HookEvent,
  tool: Extract<HookTool, { kind: 'file' | 'patch' }>,
  plan: CallPlan,
  roots: readonly string[],
): Promise<{ readonly ask?: string; readonly warn?: string; readonly refusal?: AppErrorData } | undefined> {
  const found = await deps.collisions?.check(sessionId, plan.targets, [...roots, ...plan.directories]);
  if (found === undefined) return undefined;
  const now = Date.now();
  if (found.mode === 'warn') return { warn: collisionWarning(found.collision, found.displayPath, now) };
  if (event.unattended !== undefined)
    return { refusal: collisionRefusal(found.collision, found.displayPath, tool.name, 'unasked', now) };
  const refusal = collisionRefusal(found.collision, found.displayPath, tool.name, 'denied', now);
  return {
    ask: `${collisionLine(found.collision, found.displayPath, now)}. If you deny it, tell the agent: ${refusal.message}`,
  };
}

/** What Vigil will do about a call, by the kind of tool: a file tool, a patch of several files, a shell command. */
function planOf(tool: HookTool, context: PlanContext): Promise<CallPlan> {
  if (tool.kind === 'file') return planFileCall(tool, context);
  return tool.kind === 'patch' ? planPatchCall(tool, context) : planShellCall(tool, context);
}

/** Two reasons as one, either may be absent. */
function joinReasons(first: string | undefined, second: string | undefined): string | undefined {
  return first === undefined ? second : second === undefined ? first : `${first}; ${second}`;
}

/**
 * Before a tool call that may change files: Vigil's checks and policy (file tools get exactly what
 * Vigil's own file tools get), then for a call that may run the checkpoint of every workspace root
 * it may change — file tools before the turn's first change there, shell commands before every
 * command. A refused call is recorded at once and never checkpointed (seed 002); an asked one is
 * checkpointed too, since the agent does not say whether the person let it run until it has. Where
 * the agent asks nobody (`event.unattended`), every "ask" becomes "deny", before any checkpoint. A
 * checkpoint that fails makes the call ask, saying why, unless `hooks.onFailure` is `allow`.
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
  const context = {
    roots: session.roots,
    cwd: event.cwd,
    facts: deps.facts,
    vigilHome: deps.vigilHome,
    policy: deps.policy,
    limits: await deps.checkpointLimits(),
  };
  const plan = await planOf(tool, context);
  const base = pendingOf(tool, plan, turn);
  if (plan.decision === 'deny') return refuse(deps, sessionId, base, tool, plan.reason ?? 'its policy refuses it');
  if (plan.decision === 'ask' && event.unattended !== undefined)
    return refuse(deps, sessionId, base, tool, unattendedRefusal(tool, plan.reason, event.unattended, event.cwd));
  const collided =
    tool.kind !== 'shell' ? await guardCollision(deps, sessionId, event, tool, plan, session.roots) : undefined;
  if (collided?.refusal !== undefined)
    return refuse(deps, sessionId, base, tool, collided.refusal.message, collided.refusal);
  if (plan.newRoots.length > 0)
    await deps.sessions.setRoots(sessionId, [...session.roots, ...plan.newRoots], session.cwd);
  const { config } = await readHooksConfig(deps.config);
  const taken = await checkpointsFor(gate, deps, sessionId, event, tool, plan, turn, state);
  let decision = collided?.ask === undefined ? plan.decision : 'ask';
  let reason = joinReasons(collided?.ask ?? collided?.warn, plan.reason);
  const problems = [...plan.problems, ...taken.failures];
  if (taken.failures.length > 0 && config.onFailure === 'ask') {
    decision = 'ask';
    reason = [
      reason,
      `Vigil could not checkpoint before this change, so it could not be undone: ${taken.failures.join(' ')}`,
    ]
      .filter((part) => part !== undefined)
      .join('; ');
    if (event.unattended !== undefined)
      return refuse(deps, sessionId, base, tool, unattendedRefusal(tool, reason, event.unattended, event.cwd));
  } else if (taken.failures.length > 0) {
    problems.push(
      'hooks.onFailure is "allow" in config.json, so the call went on without its checkpoint: its changes there cannot be undone.',
    );
  }
  state.pending.push({
    ...base,
    decision,
    reason,
    checkpoints: taken.checkpoints,
    touched: taken.touched,
    problems,
  });
  // Shown until its result comes (or the next call, the turn's end): at the agent's own prompt, or running.
  deps.sessions.setPendingCall(sessionId, {
    callId: base.callId,
    name: base.tool,
    turn,
    summary: describeCall(base.tool, base.arguments),
    at: base.at,
    isAsking: decision === 'ask',
    ...(reason === undefined ? {} : { reason }),
    agentName: hookAgentNames[event.agent],
  });
  return { decision, reason, notices: [], isApproving: config.approveAllowed };
}
