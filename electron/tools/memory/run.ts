import type { MemoryMutation } from '../../../shared/contract/memory-contract';
import { memoryToolFieldName, memoryToolResult, type MemoryToolInput } from '../../../shared/tools/memory-tool';
import type { ToolOutput } from '../../../shared/tools/tool-registry';
import type { MemoryService } from '../../memory';
import type { ExecutionSession } from '../tool-adapter';
import { memoryFileNames } from './memory-file-names';

/** A memory call as its prepare resolved it: the memory directory chosen once, and what it changes (nothing for a read). */
export interface MemoryTarget {
  readonly directory: string;
  readonly mutation: MemoryMutation | undefined;
}

/**
 * The `memory` tool: reads or changes one store file in exactly the directory its prepare chose.
 * The store takes its own locks (Hermes's flock too), drift check and checkpoint of the memory
 * directory, attributed to the session and turn.
 */
export async function runMemory(
  args: MemoryToolInput,
  target: MemoryTarget,
  session: Pick<ExecutionSession, 'id' | 'turn' | 'agent'>,
  memory: MemoryService,
): Promise<ToolOutput<'memory'>> {
  if (target.mutation === undefined) {
    const view = await memory.read(target.directory, args.target);
    return memoryToolResult({
      target: args.target,
      outcome: 'unchanged',
      message: `${view.entries.length} entries in ${memoryFileNames[args.target]}.`,
      entries: view.entries,
      usage: view.usage,
      preserved: [],
    });
  }
  const result = await memory.mutate(target.directory, args.target, target.mutation, {
    attribution: { sessionId: session.id, turn: session.turn, tool: 'memory', agent: session.agent },
    fieldOf: memoryToolFieldName(args),
  });
  // The checkpoint holding the file before this change (created now, or the folder's head that already held it): a rewind of the turn uses it.
  const { checkpoint } = result;
  const isHeld =
    result.outcome === 'changed' &&
    checkpoint.id !== undefined &&
    (checkpoint.status === 'created' || checkpoint.status === 'unchanged');
  return memoryToolResult(
    result,
    isHeld && checkpoint.id !== undefined
      ? { directory: result.dir, checkpointId: checkpoint.id, path: memoryFileNames[args.target] }
      : undefined,
  );
}
