import path from 'node:path';
import type { TouchedDirectory } from './checkpoint-gate';
import type { SessionState } from '../sessions/session-state';
import { isPathInside } from '../lib/path-rules';
import type { ObservedCall } from './observed-record';

/** The paths of a call inside a directory, relative and `/`-separated; undefined when it may change anything there. */
export function pathsIn(
  directory: string,
  paths: readonly string[] | undefined,
): { readonly paths?: readonly string[] } {
  if (paths === undefined) return {};
  const inside = paths
    .filter((candidate) => isPathInside(candidate, directory))
    .map((candidate) => path.relative(directory, candidate).split(path.sep).join('/'));
  return inside.length === 0 || inside.includes('') ? {} : { paths: [...new Set(inside)] };
}

/**
 * The checkpoint a turn already holds for a directory (file tools checkpoint before the turn's
 * first change only): from a call of the turn on record, or one still waiting for its result.
 */
export function turnCheckpointOf(
  state: SessionState,
  pending: readonly ObservedCall[],
  turn: number,
  directory: string,
): string | undefined {
  const held = (touched: readonly TouchedDirectory[]): string | undefined =>
    touched.find((item) => item.directory === directory && item.checkpointId !== undefined)?.checkpointId;
  for (const call of state.calls.values()) {
    if (call.record.turn !== turn) continue;
    const found = held(call.record.touched);
    if (found !== undefined) return found;
  }
  for (const call of pending) {
    if (call.turn !== turn) continue;
    const found = held(call.touched);
    if (found !== undefined) return found;
  }
  return undefined;
}
