import { defaultCheckpointLimits } from '../../executor/execution-session';
import type { ExecutionSession } from '../tool-adapter';

/**
 * The session a file tool's test prepares its calls in: a test agent's (`ses_test`, turn 1) whose one
 * root and working folder is `workspace`, with its home at `homeDir` and the default checkpoint limits.
 */
export function testSession(workspace: string, homeDir: string): ExecutionSession {
  return {
    id: 'ses_test',
    agent: 'test',
    roots: [workspace],
    turn: 1,
    workspace: { cwd: workspace, roots: [workspace], homeDir },
    checkpointLimits: defaultCheckpointLimits,
  };
}
