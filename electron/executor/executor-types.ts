/**
 * The tool executor's API, as the gateway (MCP, JSON-RPC), `vigil tool` and the demo call it.
 * Stable: change it only additively.
 *
 *   execute(sessionId, calls, { concurrent }) → ToolCallOutcome[]   (one per call, in call order)
 *
 * One pipeline for sequential and concurrent batches (seed 002, design §4):
 *   parse + validate (shared/tools schemas) → a policy decision for every call (allow / ask a human /
 *   block) → for allowed calls only, in call order, the checkpoint (at most once per directory per
 *   turn) → execution (concurrent where paths do not overlap) → results in call order, each written
 *   to the session log (flushed) before `execute` resolves.
 * A refused call (blocked, denied, invalid) never touches checkpoint state: no checkpoint, no
 * consumed dedup slot. `execute` never rejects for a tool's failure: that is the outcome's `result`.
 * It rejects only for an unknown or closed session (`not_found`, `conflict`).
 * A call made outside a turn opens one (`beginTurn`), so every checkpoint has a turn.
 */
import type { CallCollision } from '../../shared/contract/call-collision-contract';
import type { CallCheckpoint, ToolDecision } from '../../shared/contract/sessions-contract';
import type { Result } from '../../shared/result';

export type { CallCheckpoint, ToolDecision } from '../../shared/contract/sessions-contract';

/** One tool call as an agent sends it; `arguments` is validated by the tool's shared schema. */
export interface ToolCallRequest {
  /** The agent's id for the call; generated when absent. */
  readonly callId?: string;
  readonly name: string;
  readonly arguments: unknown;
}

/** How a batch runs. */
export interface ExecuteOptions {
  /** Run calls whose paths do not overlap at the same time (writes to one path and terminal commands stay serialized). */
  readonly concurrent: boolean;
}

/** What became of one call. */
export interface ToolCallOutcome {
  readonly callId: string;
  readonly name: string;
  /** The turn the call belongs to. */
  readonly turn: number;
  readonly decision: ToolDecision;
  /** Why policy or a human decided as it did (the rule, the pattern, the timeout). */
  readonly reason?: string;
  /** The tool's output, or its error (for a refused call, the refusal: `denied`, `invalid_request`, …). */
  readonly result: Result<unknown>;
  /** Checkpoints taken (or found unchanged) for this call before it ran; empty for refused calls. */
  readonly checkpoints: readonly CallCheckpoint[];
  /** Checkpoints that failed; the call still ran (design §4: checkpoint errors never fail a call). */
  readonly checkpointProblems: readonly string[];
  /** Files a terminal command overwrote that another live session had just changed (`sessions.collisions` not "off"). */
  readonly collisions?: readonly CallCollision[];
}

/** Runs agents' tool calls through validation, policy, checkpoints and the tools. */
export interface ToolExecutor {
  execute(
    sessionId: string,
    calls: readonly ToolCallRequest[],
    options: ExecuteOptions,
  ): Promise<readonly ToolCallOutcome[]>;
}
