import { checkpointReasons } from '../../shared/checkpoint-reasons';
import type { FileTarget } from '../workspace';
import { pathLockKey, rootLockKey, type PreparedCall } from './tool-adapter';
import { coverageParts, type UndoCoverage } from './undo-coverage';

/**
 * What a file tool's call is, given its target resolved once: the target is what policy sees,
 * what the locks cover and what the checkpoint captures, and `run` receives exactly it. A writing
 * tool's coverage says what its checkpoint cannot bring back (policy asks before such a change).
 */
export function fileCall(
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
