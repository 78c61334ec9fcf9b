import type { ToolInput } from '../../../shared/tools/tool-registry';
import { resolveFileTarget } from '../../workspace/resolve-file-target';
import { fileCall } from '../file-call';
import type { ExecutionSession, PreparedCall } from '../tool-adapter';
import { fileChangeCoverage } from '../undo-coverage';
import { runPatch } from './run';

/** `patch`: a confined edit, checkpointed first, an exclusive lock on the path. */
export async function preparePatch(args: ToolInput<'patch'>, session: ExecutionSession): Promise<PreparedCall> {
  const target = await resolveFileTarget(args.path, session.workspace, { tool: 'patch', isWrite: true });
  const coverage = await fileChangeCoverage(target.path, target.root, session.checkpointLimits);
  return fileCall('patch', target, () => runPatch(args, target), coverage);
}
