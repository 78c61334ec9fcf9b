import path from 'node:path';
import { AppError } from '../../../shared/errors';
import { memoryToolMutation, type MemoryToolInput } from '../../../shared/tools/memory-tool';
import type { MemoryService } from '../../memory';
import type { ExecutionSession, PreparedCall } from '../tool-adapter';
import { memoryFileNames } from './memory-file-names';
import { runMemory } from './run';

/** The names Hermes Agent goes by as a session's agent (`vigil mcp --agent hermes`, `?agent=hermes`). */
const hermesAgentName = /^hermes(?:[-_ ]?agent)?$/iu;

/**
 * The agent's memory directory: Hermes's own folder (`~/.hermes/memories`, the one Hermes loads)
 * for an agent named hermes when Vigil manages it, else Vigil's own (`$VIGIL_HOME/memories`), else
 * the first the store manages.
 */
async function memoryDirectory(memory: MemoryService, agent: string): Promise<string> {
  const directories = await memory.directories();
  const hermes = hermesAgentName.test(agent)
    ? directories.find((directory) => directory.source === 'hermes')
    : undefined;
  const chosen = hermes ?? directories.find((directory) => directory.source === 'vigil') ?? directories[0];
  if (chosen === undefined)
    throw new AppError(
      'unsupported',
      'memory was not run: no memory directory is configured (see "memory" in config.json).',
      { tool: 'memory' },
    );
  return chosen.path;
}

/**
 * `memory`: the memory store's actions on the agent's memory directory, chosen once here. The store
 * takes its own locks, drift check and checkpoint; the executor only decides and serializes.
 */
export async function prepareMemory(
  args: MemoryToolInput,
  session: ExecutionSession,
  memory: MemoryService,
): Promise<PreparedCall> {
  const directory = await memoryDirectory(memory, session.agent);
  const mutation = memoryToolMutation(args);
  const file = path.join(directory, memoryFileNames[args.target]);
  return {
    summary: `${args.action} ${args.target}`,
    subject: { tool: 'memory', paths: [{ absolute: file, root: directory }] },
    locks: [{ key: `memory:${file}`, mode: mutation === undefined ? 'read' : 'write' }],
    written: [],
    run: () => runMemory(args, { directory, mutation }, session, memory),
  };
}
