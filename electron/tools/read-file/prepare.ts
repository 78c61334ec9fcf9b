import type { ToolInput } from '../../../shared/tools/tool-registry';
import { resolveFileTarget } from '../../workspace';
import { fileCall } from '../file-call';
import type { ExecutionSession, PreparedCall } from '../tool-adapter';
import { runReadFile } from './run';

/** `read_file`: a confined read, no checkpoint, a shared lock on the path. */
export async function prepareReadFile(args: ToolInput<'read_file'>, session: ExecutionSession): Promise<PreparedCall> {
  const target = await resolveFileTarget(args.path, session.workspace, { tool: 'read_file' });
  return fileCall('read_file', target, () => runReadFile(args, target));
}
