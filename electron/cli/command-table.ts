import { checkpointCommand } from './commands/checkpoint-command';
import { checkpointsCommandGroup } from './commands/checkpoints-command-group';
import { connectCommand } from './commands/connect-command';
import { coreCommandGroup } from './commands/core-command-group';
import { hookCommand } from './commands/hook-command';
import { mcpCommand } from './commands/mcp-command';
import { memoryCommandGroup } from './commands/memory-command-group';
import { serveCommand } from './commands/serve-command';
import { sessionsCommandGroup } from './commands/sessions-command-group';
import { toolCommand } from './commands/tool-command';
import { writeCommand } from './commands/write-command';
import type { CliEntry } from './run-cli';

/** Every command of `vigil`, in the order `vigil --help` lists them. */
export const commandTable: readonly CliEntry[] = [
  serveCommand,
  mcpCommand,
  connectCommand,
  hookCommand,
  writeCommand,
  toolCommand,
  checkpointCommand,
  checkpointsCommandGroup,
  memoryCommandGroup,
  sessionsCommandGroup,
  coreCommandGroup,
];
