import { AppError } from '../../shared/errors';
import type { ToolInput } from '../../shared/tools/tool-registry';
import { checkpointReasons } from '../checkpoints/checkpoint-reasons';
import { runPatch } from '../files/run-patch';
import { runReadFile } from '../files/run-read-file';
import { runWriteFile } from '../files/run-write-file';
import { resolveWorkspacePath } from '../workspace/resolve-workspace-path';
import { pathLockKey, rootLockKey, type ToolAdapter } from './tool-adapter';
import { coverageParts, fileChangeCoverage } from './undo-coverage';

/** `read_file`: a confined read, no checkpoint, a shared lock on the path. */
export const readFileAdapter: ToolAdapter = {
  name: 'read_file',
  async prepare(raw, session) {
    const args = raw as ToolInput<'read_file'>;
    const { absolute, root } = await resolveWorkspacePath(args.path, session.workspace);
    return {
      summary: args.path,
      subject: { tool: 'read_file', paths: [{ absolute, root }] },
      locks: [{ key: pathLockKey(absolute), mode: 'read' }],
      written: [],
      run: () => runReadFile(args, session.workspace),
    };
  },
};

/** `write_file`: a confined atomic write, checkpointed first, an exclusive lock on the path. */
export const writeFileAdapter: ToolAdapter = {
  name: 'write_file',
  async prepare(raw, session) {
    const args = raw as ToolInput<'write_file'>;
    if (/[\\/]$/u.test(args.path)) {
      // Refused here, before any checkpoint, rather than by the writer after one.
      throw new AppError('invalid_request', `write_file was not run: the path "${args.path}" ends with a separator, so it names a directory; give the path of a file. No file was created or modified.`, {
        tool: 'write_file',
        field: 'path',
        path: args.path,
      });
    }
    const { absolute, root } = await resolveWorkspacePath(args.path, session.workspace);
    const coverage = coverageParts(await fileChangeCoverage(absolute, root, session.checkpointLimits, Buffer.byteLength(args.content, 'utf8')));
    return {
      summary: args.path,
      subject: { tool: 'write_file', paths: [{ absolute, root }], ...coverage.subject },
      checkpoint: { directories: [root], paths: [absolute], reason: checkpointReasons.beforeTool('write_file'), ...coverage.checkpoint },
      locks: [{ key: pathLockKey(absolute), mode: 'write' }, { key: rootLockKey(root), mode: 'read' }],
      written: [absolute],
      run: () => runWriteFile(args, session.workspace),
    };
  },
};

/** `patch`: a confined edit, checkpointed first, an exclusive lock on the path. */
export const patchAdapter: ToolAdapter = {
  name: 'patch',
  async prepare(raw, session) {
    const args = raw as ToolInput<'patch'>;
    const { absolute, root } = await resolveWorkspacePath(args.path, session.workspace);
    const coverage = coverageParts(await fileChangeCoverage(absolute, root, session.checkpointLimits));
    return {
      summary: args.path,
      subject: { tool: 'patch', paths: [{ absolute, root }], ...coverage.subject },
      checkpoint: { directories: [root], paths: [absolute], reason: checkpointReasons.beforeTool('patch'), ...coverage.checkpoint },
      locks: [{ key: pathLockKey(absolute), mode: 'write' }, { key: rootLockKey(root), mode: 'read' }],
      written: [absolute],
      run: () => runPatch(args, session.workspace),
    };
  },
};
