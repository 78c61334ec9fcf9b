import type { ToolInput } from '../../shared/tools/tool-registry';
import { checkpointReasons } from '../../shared/checkpoint-reasons';
import { runPatch } from './patch/run';
import { runReadFile } from './read-file/run';
import { runWriteFile } from './write-file/run';
import type { FileTarget } from '../workspace/resolve-file-target';
import { resolveFileTarget } from '../workspace/resolve-file-target';
import { pathLockKey, rootLockKey, type PreparedCall, type ToolAdapter } from './tool-adapter';
import { coverageParts, fileChangeCoverage, type UndoCoverage } from './undo-coverage';

/**
 * What a file tool's call is, given its target resolved once: the target is what policy sees,
 * what the locks cover and what the checkpoint captures, and `run` receives exactly it. A writing
 * tool's coverage says what its checkpoint cannot bring back (policy asks before such a change).
 */
function fileCall(
  tool: 'read_file' | 'write_file' | 'patch',
  target: FileTarget,
  run: PreparedCall['run'],
  coverage: UndoCoverage = { lost: [], notCovered: [] },
): PreparedCall {
  const subject = { tool, paths: [{ absolute: target.path, root: target.root }] };
  if (tool === 'read_file')
    return {
      summary: target.input,
      subject,
      locks: [{ key: pathLockKey(target.path), mode: 'read' }],
      written: [],
      run,
    };
  const parts = coverageParts(coverage);
  return {
    summary: target.input,
    subject: { ...subject, ...parts.subject },
    checkpoint: {
      directories: [target.root],
      paths: [target.path],
      reason: checkpointReasons.beforeTool(tool),
      ...parts.checkpoint,
    },
    locks: [
      { key: pathLockKey(target.path), mode: 'write' },
      { key: rootLockKey(target.root), mode: 'read' },
    ],
    written: [target.path],
    run,
  };
}

/** `read_file`: a confined read, no checkpoint, a shared lock on the path. */
export const readFileAdapter: ToolAdapter = {
  name: 'read_file',
  async prepare(raw, session) {
    const args = raw as ToolInput<'read_file'>;
    const target = await resolveFileTarget(args.path, session.workspace, { tool: 'read_file' });
    return fileCall('read_file', target, () => runReadFile(args, target));
  },
};

/** `write_file`: a confined atomic write, checkpointed first, an exclusive lock on the path. */
export const writeFileAdapter: ToolAdapter = {
  name: 'write_file',
  async prepare(raw, session) {
    const args = raw as ToolInput<'write_file'>;
    // A trailing separator is refused here, before any checkpoint, rather than by the writer after one.
    const target = await resolveFileTarget(args.path, session.workspace, { tool: 'write_file', mustNameFile: true });
    const coverage = await fileChangeCoverage(
      target.path,
      target.root,
      session.checkpointLimits,
      Buffer.byteLength(args.content, 'utf8'),
    );
    return fileCall('write_file', target, () => runWriteFile(args, target), coverage);
  },
};

/** `patch`: a confined edit, checkpointed first, an exclusive lock on the path. */
export const patchAdapter: ToolAdapter = {
  name: 'patch',
  async prepare(raw, session) {
    const args = raw as ToolInput<'patch'>;
    const target = await resolveFileTarget(args.path, session.workspace, { tool: 'patch' });
    const coverage = await fileChangeCoverage(target.path, target.root, session.checkpointLimits);
    return fileCall('patch', target, () => runPatch(args, target), coverage);
  },
};
