import type { ToolInput } from '../../../shared/tools/tool-registry';
import { resolveFileTarget } from '../../workspace';
import { fileCall } from '../file-call';
import type { ExecutionSession, PreparedCall } from '../tool-adapter';
import { fileChangeCoverage } from '../undo-coverage';
import { runWriteFile } from './run';

/** `write_file`: a confined atomic write, checkpointed first, an exclusive lock on the path. */
export async function prepareWriteFile(
  args: ToolInput<'write_file'>,
  session: ExecutionSession,
): Promise<PreparedCall> {
  // A trailing separator is refused here, before any checkpoint, rather than by the writer after one.
  const target = await resolveFileTarget(args.path, session.workspace, {
    tool: 'write_file',
    mustNameFile: true,
    isWrite: true,
  });
  const coverage = await fileChangeCoverage(
    target.path,
    target.root,
    session.checkpointLimits,
    Buffer.byteLength(args.content, 'utf8'),
  );
  return {
    ...fileCall('write_file', target, () => runWriteFile(args, target), coverage),
    proposed: () => Promise.resolve(args.content),
  };
}
