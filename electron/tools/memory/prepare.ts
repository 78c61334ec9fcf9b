import path from 'node:path';
import { AppError } from '../../../shared/errors';
import {
  memoryToolFieldName,
  memoryToolMutation,
  memoryToolResult,
  type MemoryToolInput,
} from '../../../shared/tools/memory-tool';
import type { MemoryService } from '../../memory/memory-service';
import type { ToolAdapter } from '../tool-adapter';

const fileNames = { memory: 'MEMORY.md', user: 'USER.md' } as const;

/** The names Hermes Agent goes by as a session's agent (`vigil mcp --agent hermes`, `?agent=hermes`). */
const hermesAgentName = /^hermes(?:[-_ ]?agent)?$/iu;

/**
 * `memory`: the memory store's actions on the agent's memory directory: Hermes's own folder
 * (`~/.hermes/memories`, the one Hermes loads) for an agent named hermes when Vigil manages it,
 * else Vigil's own (`$VIGIL_HOME/memories`), else the first the store manages. The store takes its
 * own locks (Hermes's flock too), drift check and checkpoint of the memory directory, attributed
 * to the session and turn; the executor only decides and serializes.
 */
export function createMemoryAdapter(memory: MemoryService): ToolAdapter {
  async function memoryDirectory(agent: string): Promise<string> {
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

  return {
    name: 'memory',
    async prepare(raw, session) {
      const args = raw as MemoryToolInput;
      const directory = await memoryDirectory(session.agent);
      const mutation = memoryToolMutation(args);
      const file = path.join(directory, fileNames[args.target]);
      return {
        summary: `${args.action} ${args.target}`,
        subject: { tool: 'memory', paths: [{ absolute: file, root: directory }] },
        locks: [{ key: `memory:${file}`, mode: mutation === undefined ? 'read' : 'write' }],
        written: [],
        async run() {
          if (mutation === undefined) {
            const view = await memory.read(directory, args.target);
            return memoryToolResult({
              target: args.target,
              outcome: 'unchanged',
              message: `${view.entries.length} entries in ${fileNames[args.target]}.`,
              entries: view.entries,
              usage: view.usage,
              preserved: [],
            });
          }
          const result = await memory.mutate(directory, args.target, mutation, {
            attribution: { sessionId: session.id, turn: session.turn, tool: 'memory', agent: session.agent },
            fieldOf: memoryToolFieldName(args),
          });
          return memoryToolResult(result);
        },
      };
    },
  };
}
