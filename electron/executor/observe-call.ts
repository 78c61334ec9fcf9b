import type { HookTool } from '../../shared/hooks/hook-event';
import type { AppErrorData } from '../../shared/errors';
import { checkpointReasons } from '../../shared/checkpoint-reasons';
import type { PolicyEngine } from '../policy';
import { callSecretReason, condenseValue } from '../sessions';
import type { SessionState } from '../sessions';
import { commandSubject, type CoverageLimits } from '../tools';
import { isPathInside } from '../lib';
import type { WorkspaceFacts } from '../workspace';
import { allowedWithoutCheckpoint, withoutCheckpointReason } from './checkpoint-failure';
import { pathsIn, turnCheckpointOf, type CheckpointGate } from './checkpoint-gate';
import type { CollisionGuard } from './collision-guard';
import { collisionLine, collisionRefusal, collisionWarning } from './collision-rule';
import { planFileCall, planShellCall, type CallPlan, type PlanContext } from './observed-plan';
import { planPatchCall } from './observed-patch-plan';
import type { ObservedCall } from './call-records';

/** What the pipeline's stages need for a call an agent runs itself. */
export interface ObserveDeps {
  /** The checkpoint stage (its slots: once per directory per turn). */
  readonly gate: CheckpointGate;
  readonly policy: Pick<PolicyEngine, 'decide'>;
  /** The collision guard: a file another live session changed recently is not overwritten silently. */
  readonly collisions?: CollisionGuard;
  readonly facts: WorkspaceFacts;
  /** Vigil's own data folder (never changed by an agent). */
  readonly vigilHome: string;
  /** The session: its state (checkpoints the turn holds on record) and its roots (a call may add one). */
  readonly sessions: {
    stateOf(sessionId: string): SessionState;
    setRoots(sessionId: string, roots: readonly string[], cwd?: string): Promise<unknown>;
  };
}

/** One call an agent is about to run itself, in its session's turn. */
export interface ObservedRequest {
  readonly sessionId: string;
  /** The agent's name (checkpoint trailers). */
  readonly agent: string;
  readonly turn: number;
  readonly tool: HookTool;
  /** The agent's working folder. */
  readonly cwd: string;
  readonly session: { readonly roots: readonly string[]; readonly cwd?: string };
  /** Why nobody can be asked (the agent runs unattended); absent: the agent's own prompt asks a person. */
  readonly unattended?: string;
  readonly limits: CoverageLimits;
  /** `checkpoints.onFailure` (or `hooks.onFailure`): what a failed checkpoint makes of the call. */
  readonly onFailure: () => Promise<'ask' | 'allow'>;
  /** Calls of the session that wait for their results (their checkpoints count for the turn). */
  readonly pending: readonly ObservedCall[];
}

/** What the stages made of it: refused (recorded at once, never checkpointed), or let run and waiting for its result. */
export type ObservedBefore =
  | { readonly kind: 'refused'; readonly call: ObservedCall; readonly reason: string; readonly error?: AppErrorData }
  | { readonly kind: 'waiting'; readonly call: ObservedCall };

/** The subject of the checkpoint before a call: `before Write`, `before terminal: rm -rf legacy`. */
function reasonOf(tool: HookTool): string {
  return tool.kind === 'shell'
    ? checkpointReasons.beforeTerminal(commandSubject(tool.command))
    : checkpointReasons.beforeTool(tool.name);
}

/** The call as it enters the record stage: what the session will keep of it. */
function observedOf(
  tool: HookTool,
  callId: string,
  plan: CallPlan,
  turn: number,
): Omit<ObservedCall, 'decision' | 'checkpoints' | 'touched' | 'problems'> {
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
    callId,
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

/**
 * The collision guard on a file tool. "ask": the agent's own prompt asks the person, with the line
 * and what to do; where the agent asks nobody, the call is refused with the message MCP gives
 * (`collision`). "warn": it runs, its reason saying what it overwrites.
 */
async function guardCollision(
  deps: ObserveDeps,
  request: ObservedRequest,
  plan: CallPlan,
): Promise<{ readonly ask?: string; readonly warn?: string; readonly refusal?: AppErrorData } | undefined> {
  const { tool } = request;
  if (tool.kind === 'shell') return undefined;
  const roots = [...request.session.roots, ...plan.directories];
  const found = await deps.collisions?.check(request.sessionId, plan.targets, roots);
  if (found === undefined) return undefined;
  const now = Date.now();
  if (found.mode === 'warn') return { warn: collisionWarning(found.collision, found.displayPath, now) };
  if (request.unattended !== undefined)
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
 * The checkpoint stage for an observed call, through the executor's gate: file tools once per
 * directory per turn (a checkpoint the turn already holds — on record, or waiting for its result,
 * perhaps taken by another process — is found, not taken again), shell commands before every command.
 */
async function checkpointObserved(deps: ObserveDeps, request: ObservedRequest, plan: CallPlan) {
  const { sessionId, turn, tool } = request;
  const held = (directory: string): string | undefined => {
    const onRecord = [...deps.sessions.stateOf(sessionId).calls.values()].map((call) => call.record);
    return turnCheckpointOf([...onRecord, ...request.pending], turn, directory);
  };
  const gated = await deps.gate.stage(
    {
      sessionId,
      agent: request.agent,
      turn,
      tool: tool.name,
      reason: reasonOf(tool),
      directories: plan.directories,
      paths: plan.targets,
      isWholeDirectory: plan.isWholeDirectory,
    },
    plan.notCovered,
    { isEveryCall: !plan.isOncePerTurn, heldElsewhere: held },
  );
  return { checkpoints: [...gated.checkpoints], touched: gated.touched, failures: gated.problems };
}

/**
 * The executor's stages for a call an agent runs itself (its hooks' "before" event): validate and
 * resolve once, the policy (file tools get exactly what Vigil's own file tools get), the collision
 * guard, approval (the agent's own prompt asks; where it asks nobody, every "ask" becomes a
 * refusal, before any checkpoint), then for a call that may run the checkpoint of every root it may
 * change. The run is the agent's own; its result comes later to the record stage. A refused call
 * is never checkpointed (seed 002). A checkpoint that fails makes the call ask, saying why, unless
 * `checkpoints.onFailure` (or its older name `hooks.onFailure`) is `allow`, as Vigil's own tools do.
 */
export async function observeBefore(
  deps: ObserveDeps,
  request: ObservedRequest,
  callId: string,
): Promise<ObservedBefore> {
  const { tool, unattended } = request;
  const context = { ...request.session, cwd: request.cwd, facts: deps.facts, vigilHome: deps.vigilHome };
  const planned = { ...context, policy: deps.policy, limits: request.limits };
  const plan = await planOf(tool, planned);
  const base = observedOf(tool, callId, plan, request.turn);
  const refused = (reason: string, error?: AppErrorData): ObservedBefore => ({
    kind: 'refused',
    call: { ...base, decision: 'allow', checkpoints: [], touched: [], problems: [] },
    reason,
    ...(error === undefined ? {} : { error }),
  });
  if (plan.decision === 'deny') return refused(plan.reason ?? 'its policy refuses it');
  if (plan.decision === 'ask' && unattended !== undefined)
    return refused(unattendedRefusal(tool, plan.reason, unattended, request.cwd));
  // checkpoints.onFailure (config.json) is read while the collision guard looks: neither waits for the other.
  const [collided, onFailure] = await Promise.all([guardCollision(deps, request, plan), request.onFailure()]);
  if (collided?.refusal !== undefined) return refused(collided.refusal.message, collided.refusal);
  const { roots, cwd } = request.session;
  if (plan.newRoots.length > 0) await deps.sessions.setRoots(request.sessionId, [...roots, ...plan.newRoots], cwd);
  const taken = await checkpointObserved(deps, request, plan);
  let decision = collided?.ask === undefined ? plan.decision : 'ask';
  let reason = joinReasons(collided?.ask ?? collided?.warn, plan.reason);
  const problems = [...plan.problems, ...taken.failures];
  if (taken.failures.length > 0 && onFailure === 'ask') {
    decision = 'ask';
    reason = joinReasons(reason, withoutCheckpointReason(taken.failures));
    if (unattended !== undefined) return refused(unattendedRefusal(tool, reason, unattended, request.cwd));
  } else if (taken.failures.length > 0) {
    problems.push(allowedWithoutCheckpoint);
  }
  const call = { ...base, decision, checkpoints: taken.checkpoints, touched: taken.touched, problems };
  return { kind: 'waiting', call: reason === undefined ? call : { ...call, reason } };
}
