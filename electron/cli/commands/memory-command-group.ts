import type { CliCommandGroup } from '../cli-command';
import { memoryAddCommand } from './memory-add-command';
import { memoryAdoptCommand } from './memory-adopt-command';
import { memoryListCommand } from './memory-list-command';
import { memoryRemoveCommand } from './memory-remove-command';
import { memoryReplaceCommand } from './memory-replace-command';
import { memoryWatchCommand } from './memory-watch-command';

/** `vigil memory list|add|replace|remove|watch|adopt`: the agents' memory files. */
export const memoryCommandGroup: CliCommandGroup = {
  name: 'memory',
  summary: "The agents' memory files (MEMORY.md, USER.md): list, change under the drift guard, watch, adopt.",
  subcommands: [
    memoryListCommand,
    memoryAddCommand,
    memoryReplaceCommand,
    memoryRemoveCommand,
    memoryWatchCommand,
    memoryAdoptCommand,
  ],
};
