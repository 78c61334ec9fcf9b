import { exitCodes, flagOption, writeLine, type CliCommand } from '../cli-command';
import { formatBytes } from '../../../shared/text/format-bytes';
import { withCheckpoints } from './checkpoint-command';

/** `vigil checkpoints prune`: applies the retention policy now and collects garbage. */
export const checkpointsPruneCommand: CliCommand = {
  name: 'prune',
  summary: 'Apply the retention policy now: drop old checkpoints, delete what nothing needs, pack the rest.',
  usage: 'vigil checkpoints prune [--json]',
  help: [
    'Keeps the newest checkpoints of each directory (50 by default) and the store under its size cap',
    '(500 MiB; the oldest checkpoints across all directories go first, never the newest of one).',
    'Objects no checkpoint needs any more are deleted; the rest is packed into one file.',
    'Safe to interrupt: the store stays valid at every step.',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  positionals: { min: 0, max: 0, names: '' },
  async run(args, io) {
    const report = await withCheckpoints(io, (checkpoints) => checkpoints.prune());
    if (flagOption(args, 'json')) {
      writeLine(io.stdout, JSON.stringify(report));
      return exitCodes.ok;
    }
    writeLine(
      io.stdout,
      `Dropped ${report.droppedCheckpoints} checkpoint(s) and ${report.droppedObjects} unreachable object(s).`,
    );
    writeLine(
      io.stdout,
      `The store went from ${formatBytes(report.bytesBefore)} to ${formatBytes(report.bytesAfter)}.`,
    );
    return exitCodes.ok;
  },
};
