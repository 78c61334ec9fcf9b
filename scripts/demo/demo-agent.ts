import type { AgentSession } from '../../agent-client/agent-session';
import type { AgentToolCall, AgentToolOutcome } from '../../shared/agent-protocol/agent-methods';

/** What a scripted agent can do: talk, pause, and call tools through its Vigil session. */
export interface DemoAgentContext {
  readonly session: AgentSession;
  /** Prints a line under the agent's name. */
  readonly say: (line: string) => void;
  /** Waits `seconds` × the demo's pace; rejects when the demo is stopped. */
  readonly pause: (seconds: number) => Promise<void>;
  /** Starts a turn with the user's message (shown in the UI as the turn's title). */
  readonly turn: (userMessage: string) => Promise<void>;
  /** Runs calls (concurrently when asked) and prints one line per outcome. */
  readonly call: (
    calls: readonly AgentToolCall[],
    options?: { readonly concurrent?: boolean },
  ) => Promise<readonly AgentToolOutcome[]>;
  /** Adds the assistant's reply to the transcript. */
  readonly reply: (text: string) => Promise<void>;
  /** The Vigil data folder, when the demo owns it (undefined when it joined a running server). */
  readonly ownHome: string | undefined;
}

/** One scripted agent of the demo. */
export interface DemoAgent {
  readonly name: string;
  /** An ANSI colour code for its lines. */
  readonly color: number;
  /** Seconds to wait before it starts, so the three do not move in lockstep. */
  readonly delay: number;
  run(context: DemoAgentContext): Promise<void>;
}

/** One line describing an outcome: the call, its decision, the checkpoint it took, or its error. */
export function describeOutcome(outcome: AgentToolOutcome, call: AgentToolCall): string {
  const target = ['path', 'command', 'action']
    .map((key) => call.arguments[key])
    .find((value) => typeof value === 'string');
  const head = `${outcome.name}${typeof target === 'string' ? ` ${target}` : ''}`;
  const checkpoint = outcome.checkpoints.find((entry) => entry.kind === 'created');
  const taken =
    checkpoint?.checkpointId === undefined ? '' : ` (checkpoint ${checkpoint.checkpointId.slice(0, 8)} taken first)`;
  if (outcome.result.ok) return `✓ ${head}${taken}`;
  const decision =
    outcome.decision === 'allowed' || outcome.decision === 'asked-allowed' ? '' : ` [${outcome.decision}]`;
  return `✗ ${head}${decision}: ${outcome.result.error.message.split('\n')[0] ?? ''}`;
}
