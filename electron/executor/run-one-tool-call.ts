import type { CommandSandbox } from '../sandbox';
import type { SessionService } from '../sessions';
import type { ToolCallOutcome, ToolExecutor } from './executor-types';

/** One tool call a person runs from the command line (`vigil tool`). */
export interface OneToolCall {
  readonly name: string;
  readonly arguments: unknown;
  readonly cwd: string;
  readonly roots: readonly string[];
  /** The agent name recorded in the session log and the checkpoint trailers. */
  readonly agent?: string;
}

/**
 * Runs one tool call exactly as an agent's call runs: a session is opened (and logged, so
 * `vigil sessions list` shows it), the call goes through validation, policy, the checkpoint of its
 * directory and the tool, and the session is closed. In a process nobody can approve in, a call
 * that needs a human is denied at once (fail closed); with a resident core, the UI is asked.
 */
export async function runOneToolCall(
  services: {
    readonly sessions: SessionService;
    readonly executor: ToolExecutor;
    readonly sandbox?: Pick<CommandSandbox, 'warmUp'>;
  },
  call: OneToolCall,
): Promise<ToolCallOutcome> {
  // A one-shot command's sandbox engine (its proxies and bridges) starts while the call is logged, checked and checkpointed.
  if (call.name === 'terminal') services.sandbox?.warmUp();
  const session = await services.sessions.open({
    agent: call.agent ?? 'vigil tool',
    client: 'vigil-cli',
    roots: call.roots,
    cwd: call.cwd,
  });
  try {
    const [outcome] = await services.executor.execute(session.id, [{ name: call.name, arguments: call.arguments }], {
      concurrent: false,
    });
    if (outcome === undefined) throw new Error('the executor returned no outcome');
    return outcome;
  } finally {
    await services.sessions.close(session.id);
  }
}
