import type { ToolInput } from '../../../shared/tools/tool-registry';
import { decodeUtf8File, readLiveFile } from '../../files';
import { resolveFileTarget } from '../../workspace';
import { fileCall } from '../file-call';
import type { ExecutionSession, PreparedCall } from '../tool-adapter';
import { fileChangeCoverage } from '../undo-coverage';
import { applyPatch } from './apply-patch';
import { runPatch } from './run';

/** `patch`: a confined edit, checkpointed first, an exclusive lock on the path. */
export async function preparePatch(args: ToolInput<'patch'>, session: ExecutionSession): Promise<PreparedCall> {
  const target = await resolveFileTarget(args.path, session.workspace, { tool: 'patch', isWrite: true });
  const coverage = await fileChangeCoverage(target.path, target.root, session.checkpointLimits);
  return {
    ...fileCall('patch', target, () => runPatch(args, target), coverage),
    // What the edit would make of the file as it is now; undefined when it would not apply (the call then fails on its own).
    proposed: async () => {
      try {
        // Not through a symlink (at the name or a folder on the way), never waiting on a FIFO (the patch refuses all).
        const read = await readLiveFile(target.path, { within: target.root });
        if (read.kind !== 'read') return undefined;
        const text = decodeUtf8File(read.content, target.path, 'patch');
        return applyPatch(text, args.old_string, args.new_string, args.replace_all === true, target.path).text;
      } catch {
        return undefined;
      }
    },
  };
}
