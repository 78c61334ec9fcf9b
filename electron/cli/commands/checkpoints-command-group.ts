import type { CliCommandGroup } from '../cli-command';
import { checkpointsDiffCommand } from './checkpoints-diff-command';
import { checkpointsListCommand } from './checkpoints-list-command';
import { checkpointsLogCommand } from './checkpoints-log-command';
import { checkpointsRenameCommand } from './checkpoints-rename-command';
import { checkpointsSearchCommand } from './checkpoints-search-command';
import { checkpointsPinCommand, checkpointsUnpinCommand } from './checkpoints-pin-command';
import { checkpointsPruneCommand } from './checkpoints-prune-command';
import { checkpointsRestoreCommand } from './checkpoints-restore-command';
import { checkpointsStatusCommand } from './checkpoints-status-command';

/** `vigil checkpoints list|diff|restore|log|search|status|prune|pin|unpin|rename`: the timeline of a directory and the store. */
export const checkpointsCommandGroup: CliCommandGroup = {
  name: 'checkpoints',
  summary: 'Checkpoint timelines: list them, compare, restore, and look after the store.',
  subcommands: [
    checkpointsListCommand,
    checkpointsDiffCommand,
    checkpointsRestoreCommand,
    checkpointsLogCommand,
    checkpointsSearchCommand,
    checkpointsStatusCommand,
    checkpointsPruneCommand,
    checkpointsPinCommand,
    checkpointsUnpinCommand,
    checkpointsRenameCommand,
  ],
};
