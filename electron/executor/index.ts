/** The executor's public face: other folders import only this file (lint: vigil/public-face), or lazy.ts. */

/** The session record of a call an agent ran itself. */
export { recordObservedCall } from './call-records';
export type { ObservedCall } from './call-records';
/** The checkpoint a call that changes files waits for. */
export { CheckpointGate } from './checkpoint-gate';
/** The guard against two sessions changing the same file. */
export type { CollisionGuard } from './collision-guard';
/** Sessions, policy, approvals and the executor, as the core builds them (through lazy.ts). */
export type { AgentServices } from './create-agent-services';
/** The tool executor's API, as the gateway (MCP, JSON-RPC), `vigil tool` and the demo call it. */
export type { ToolCallOutcome, ToolExecutor } from './executor-types';
/** A call an agent runs itself, observed before and after: its plan and the files it changed. */
export { observeBefore } from './observe-call';
export type { ObservedBefore } from './observe-call';
export { changedFilesOf, recordObservedWrites } from './observed-effects';
export { planFileCall, planShellCall } from './observed-plan';
export type { PlanContext } from './observed-plan';
/** One tool call a person runs from the command line (`vigil tool`). */
export { runOneToolCall } from './run-one-tool-call';
