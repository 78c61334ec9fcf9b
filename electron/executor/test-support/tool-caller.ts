import { AppError } from '../../../shared/errors';
import type { AgentHarness } from './agent-harness';

/** Calls one tool as an agent would, through the executor: the tool's value, or a rejection with its AppError. */
export type ToolCaller = (name: string, args: unknown) => Promise<unknown>;

/** Opens a session on the harness (its workspace by default) and returns a caller of tools in it. */
export async function openToolCaller(
  harness: AgentHarness,
  options: { readonly roots?: readonly string[]; readonly cwd?: string } = {},
): Promise<ToolCaller> {
  const roots = options.roots ?? [harness.workspace];
  const session = await harness.sessions.open({
    agent: 'tool-caller',
    roots: [...roots],
    cwd: options.cwd,
  });
  return async (name, args) => {
    const [outcome] = await harness.executor.execute(session.id, [{ name, arguments: args }], { concurrent: false });
    if (outcome === undefined) throw new Error('the executor returned no outcome');
    if (outcome.result.ok) return outcome.result.value;
    throw new AppError(outcome.result.error.code, outcome.result.error.message, outcome.result.error.details);
  };
}
